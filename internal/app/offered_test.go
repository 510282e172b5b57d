package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// stallingRecorder hands the engine sinks whose offered records from
// second 1 on wait until released, as a scheduler starved of CPU records
// a second's arrivals after the collector took that second; stalled is
// closed when the first one waits.
type stallingRecorder struct {
	*metrics.Recorder
	stalled, release chan struct{}
	once             *sync.Once
}

func (s stallingRecorder) Sink(vu int) sample.Sink { return stallingSink{s.Recorder.Sink(vu), s} }

type stallingSink struct {
	sample.Sink
	s stallingRecorder
}

func (k stallingSink) Offered(scenario int32, at time.Duration, n int64) {
	if at >= time.Second {
		k.s.once.Do(func() { close(k.s.stalled) })
		<-k.s.release
	}
	k.Sink.Offered(scenario, at, n)
}

// TestOfferedBySchedule: a collector that takes seconds 1 and 2 while the
// scheduler is stalled, before it recorded their arrivals, still gives
// each second the schedule's rate, not 0, 0 and then three seconds' worth
// at once (trial A38: 0, 244, 0, 450 offered at a steady 150/s); the run's
// total stays exact.
func TestOfferedBySchedule(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	t.Cleanup(srv.Close)
	const rate = 20
	src := fmt.Sprintf(`base_url: %s
scenarios:
  s:
    model: arrival-rate
    start_rate: %d
    stages: [{duration: 4s, target: %d}]
    pre_allocated_vus: 5
    max_vus: 50
    flow:
      - get: /
`, srv.URL, rate, rate)
	p, err := plan.Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := stallingRecorder{metrics.NewRecorder(p.Layout, 1), make(chan struct{}), make(chan struct{}), &sync.Once{}}
	// The run began 3 s ago: seconds 0–2 are over when the scheduler starts on them.
	eng := engine.New(p, rec, engine.Options{Start: time.Now().Add(-3 * time.Second)})
	done := make(chan error, 1)
	go func() { done <- eng.Run(context.Background()) }()
	r := &runner{rec: rec.Recorder, eng: eng, pauseHook: func() {}}
	var got []int64
	take := func(sec int) {
		snap, _, _, _ := r.take(sec)
		got = append(got, snap.Scenarios[0].Offered)
	}
	select {
	case <-rec.stalled:
	case <-time.After(30 * time.Second):
		t.Fatal("the scheduler never recorded a second past the first")
	}
	for sec := range 3 {
		take(sec) // the collector on time, the scheduler behind
	}
	close(rec.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	take(3)
	var total int64
	for sec, n := range got {
		total += n
		if n < rate-1 || n > rate+1 {
			t.Errorf("second %d offered %d, want %d ± 1 (all: %v)", sec, n, rate, got)
		}
	}
	if total != 4*rate {
		t.Errorf("offered %d in all, want %d (all: %v)", total, 4*rate, got)
	}
}

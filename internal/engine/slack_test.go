package engine

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

func TestStartAtWaitsOnlyBeyondTheSlack(t *testing.T) {
	a := newAlarm()
	defer a.close()
	tests := []struct {
		name  string
		ahead time.Duration // how far ahead the arrival is due
		slack time.Duration
		early bool // starts now, before it is due
	}{
		{"within the slack starts now", time.Second, 2 * time.Second, true},
		{"no slack waits", 30 * time.Millisecond, 0, false},
		{"beyond the slack waits", 30 * time.Millisecond, 10 * time.Millisecond, false},
		{"already due", -time.Millisecond, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := time.Now().Add(tt.ahead)
			if !startAt(context.Background(), a, at, tt.slack) {
				t.Fatal("startAt = false with a live context")
			}
			if early := time.Now().Before(at); early != tt.early {
				t.Fatalf("returned %v before it was due; want early=%v", time.Until(at), tt.early)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if startAt(ctx, a, time.Now().Add(time.Millisecond), time.Second) {
		t.Fatal("startAt = true on an ended context")
	}
}

// lagRecorder is a testRecorder that also keeps the smallest start lag.
type lagRecorder struct {
	*testRecorder
	mu     sync.Mutex
	minLag time.Duration
}

func (r *lagRecorder) Sink(int) sample.Sink { return r }
func (r *lagRecorder) Lag(id int32, at, lag time.Duration) {
	r.testRecorder.Lag(id, at, lag)
	r.mu.Lock()
	r.minLag = min(r.minLag, lag)
	r.mu.Unlock()
}

func TestEarlyStartsAreTimedFromWhenTheyStarted(t *testing.T) {
	const service = 3 * time.Millisecond
	srv, hits := okServer(t, service)
	// 2,000/s is one arrival every 500µs: with a 2ms slack most start early,
	// in groups. Timed from their intended start, they would read up to 2ms
	// shorter than the server's own 3ms.
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 2000, Stages: []plan.Stage{{Duration: time.Second, Target: 2000}},
		PreAllocatedVUs: 50, MaxVUs: 400, ArrivalSlack: 2 * time.Millisecond}
	rec := &lagRecorder{testRecorder: newTestRecorder(), minLag: time.Hour}
	runPlanInto(t, &plan.Plan{Scenarios: []*plan.Scenario{scenario(load, get(srv.URL))}}, Options{}, rec.testRecorder)
	// A busy host may drop some (other tests hold the rate); every one
	// that ran is recorded once, and most ran.
	if n := len(rec.reqs); n < 1000 || int64(n) != hits.Load() {
		t.Fatalf("%d requests recorded, %d seen by the server (%d dropped); want at least half of 2,000, and equal", n, hits.Load(), rec.dropped)
	}
	for _, q := range rec.reqs {
		if q.Duration < service {
			t.Fatalf("a request read %v against a server that takes %v: an early start was timed from its intended start", q.Duration, service)
		}
	}
}

func TestStartLagIsNeverNegative(t *testing.T) {
	srv, _ := okServer(t, 0)
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 2000, Stages: []plan.Stage{{Duration: 500 * time.Millisecond, Target: 2000}},
		PreAllocatedVUs: 20, MaxVUs: 200, ArrivalSlack: 2 * time.Millisecond}
	rec := &lagRecorder{testRecorder: newTestRecorder(), minLag: time.Hour}
	p := &plan.Plan{Scenarios: []*plan.Scenario{scenario(load, get(srv.URL))}}
	p.Scenarios[0].ID = 0
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := New(p, rec, Options{}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if rec.lags < 500 || rec.lags != len(rec.reqs) {
		t.Fatalf("%d lags recorded for %d requests (of 1,000 arrivals)", rec.lags, len(rec.reqs))
	}
	if rec.minLag < 0 {
		t.Fatalf("a start lag of %v: an early start reported as negative lag", rec.minLag)
	}
}

package engine

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// factsRecorder keeps a copy of each session's facts: the sample points
// into the session's buffers, valid during the call only.
type factsRecorder struct {
	*testRecorder
	facts []sample.Facts
}

func (r *factsRecorder) Sink(int) sample.Sink { return r }

func (r *factsRecorder) Request(s *sample.Request) {
	if s.Facts != nil {
		r.mu.Lock()
		f := *s.Facts
		f.Gaps = append([]time.Duration(nil), s.Facts.Gaps...)
		r.facts = append(r.facts, f)
		r.mu.Unlock()
	}
	r.testRecorder.Request(s)
}

// TestSessionStep runs a flow of an HTTP request and an sse: step through
// the engine: the step is found in the registry, runs per VU and iteration,
// and records one sample with facts and its checks per event.
func TestSessionStep(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusCreated) })
	var after atomic.Int64
	mux.HandleFunc("/after", func(http.ResponseWriter, *http.Request) { after.Add(1) })
	mux.HandleFunc("/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(w, "id: %d\ndata: {\"n\": %d}\n\n", i, i)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done() // holds the stream open: max_events ends the session
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	src := fmt.Sprintf(`base_url: %s
scenarios:
  feed:
    iterations: 2
    vus: 1
    flow:
      - get: /login
      - sse: /events
        max_events: 3
        timeout: 10s
        check: {json: $.n, gt: 0}
      - if: {status: 200}
        then: [get: /after]
`, srv.URL)
	p, err := plan.Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &factsRecorder{testRecorder: newTestRecorder()}
	for i, s := range p.Scenarios {
		s.ID = int32(i)
	}
	if err := New(p, rec, Options{}).Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	kindsIn(t, rec.testRecorder, sample.OK)
	sse := p.Scenarios[0].Flow[1].Session.Endpoint
	var sessions int
	for _, r := range rec.reqs {
		if r.Endpoint == sse {
			sessions++
		}
	}
	if sessions != 2 || len(rec.facts) != 2 || len(rec.reqs) != 6 {
		t.Fatalf("%d samples, %d sessions, %d with facts; want 6, 2, 2", len(rec.reqs), sessions, len(rec.facts))
	}
	if after.Load() != 2 {
		t.Errorf("an if: {status: 200} after the session sent %d requests, want 2: it reads the stream's status", after.Load())
	}
	for _, f := range rec.facts {
		if f.MsgsReceived != 3 || len(f.Gaps) != 2 {
			t.Errorf("facts %+v: want 3 events and 2 gaps", f)
		}
	}
	if c := p.Scenarios[0].Flow[1].Session.Checks[0].ID; rec.passes[c] != 6 || rec.fails[c] != 0 {
		t.Errorf("check: %d passes, %d fails; want 6 and 0 (3 events, 2 sessions)", rec.passes[c], rec.fails[c])
	}
	if rec.iterations != 2 {
		t.Errorf("%d iterations, want 2", rec.iterations)
	}
}

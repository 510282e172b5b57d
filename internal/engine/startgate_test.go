package engine

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// holdServer holds every request until release is called, and counts the
// requests in flight at once.
type holdServer struct {
	mu         sync.Mutex
	held, most int
	seen       int
	release    chan struct{}
	*httptest.Server
}

func newHoldServer(t *testing.T) *holdServer {
	s := &holdServer{release: make(chan struct{}, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.held++
		s.seen++
		s.most = max(s.most, s.held)
		s.mu.Unlock()
		select {
		case <-s.release:
		case <-r.Context().Done(): // the VU's request interrupted
		}
		s.mu.Lock()
		s.held--
		s.mu.Unlock()
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *holdServer) counts() (held, most, seen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held, s.most, s.seen
}

// TestStartGateBoundsFirstRequests: closed-model VUs that start together
// send their first request at most the gate's size at a time, the others
// waiting parked, in order, until one is through (answered, or here also
// when the run is cancelled, which wakes the queued ones at once).
func TestStartGateBoundsFirstRequests(t *testing.T) {
	const vus, gate = 12, 3
	for _, cancelled := range []bool{false, true} {
		t.Run(map[bool]string{false: "answered", true: "cancelled"}[cancelled], func(t *testing.T) {
			srv := newHoldServer(t)
			load := plan.Load{Model: plan.VUs, Stages: []plan.Stage{{Duration: 20 * time.Millisecond, Target: vus},
				{Duration: time.Minute, Target: vus}}} // a ramp: the VUs start at once, not spread
			s := scenario(load, get(srv.URL), think(time.Minute))
			rec := newTestRecorder()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{})
			e.startGate = gate
			done := make(chan error, 1)
			go func() { done <- e.Run(ctx) }()
			answered := 0
			for n := 0; answered < vus; n++ { // answer one whenever the gate's worth are in flight
				held, most, _ := srv.counts()
				if most > gate {
					t.Fatalf("%d first requests in flight at once; the gate admits %d", most, gate)
				}
				if held == min(gate, vus-answered) {
					if cancelled {
						break
					}
					srv.release <- struct{}{}
					answered++
					for m := 0; rec.count() < answered; m++ { // recorded: the VU left the gate
						if m == 2000 {
							t.Fatalf("answer %d not recorded", answered)
						}
						time.Sleep(time.Millisecond)
					}
					continue
				}
				if n == 5000 {
					t.Fatalf("%d requests in flight after %d answered; want %d", held, answered, min(gate, vus-answered))
				}
				time.Sleep(time.Millisecond)
			}
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(8 * time.Second): // the requests' timeout is 10 s
				t.Fatal("the run did not end: its queued VUs were not woken")
			}
			_, most, seen := srv.counts()
			want := map[bool]int{false: vus, true: gate}[cancelled]
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if most > gate || seen != want || len(rec.reqs) != want {
				t.Fatalf("%d requests seen, %d recorded, %d at once; want %d, %d, ≤ %d", seen, len(rec.reqs), most, want, want, gate)
			}
			for _, q := range rec.reqs {
				if cancelled != (q.Kind == sample.Interrupted) {
					t.Errorf("sample %+v; cancelled %v", q, cancelled)
				}
			}
		})
	}
}

// TestStartGateIsLeftWhileAVUWaits: a VU whose flow waits before its first
// request (a think time; a session step, which may last the run, does the
// same) leaves the gate as it starts waiting, so it does not hold back the
// VUs after it.
func TestStartGateIsLeftWhileAVUWaits(t *testing.T) {
	const vus = 3
	srv := newHoldServer(t)
	load := plan.Load{Model: plan.VUs, Stages: []plan.Stage{{Duration: 10 * time.Millisecond, Target: vus},
		{Duration: time.Minute, Target: vus}}}
	s := scenario(load, think(time.Hour), get(srv.URL))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, newTestRecorder(), Options{})
	e.startGate = 1
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	for n := 0; vuGoroutines() < vus; n++ { // polled: each VU's goroutine sleeps in its think time
		if n == 2000 {
			t.Fatalf("%d VUs thinking, want %d: the first one's wait held the gate", vuGoroutines(), vus)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

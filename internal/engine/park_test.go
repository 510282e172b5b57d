package engine

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/faultserver"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestThinkingVUsHoldNoGoroutine: closed-model VUs whose flow ends in a
// think time wait for it parked, without a goroutine (and so without the
// stack their request grew), and are woken at once when the run is
// cancelled or they are ramped down, not after their minute of think: a
// cancel records no iteration, a ramp-down each one complete, its last
// think all that was left (TestRampDownEndsAThinkingVUAtOnce).
func TestThinkingVUsHoldNoGoroutine(t *testing.T) {
	const vus = 20
	up := plan.Stage{Duration: 50 * time.Millisecond, Target: vus} // a ramp: VUs start at once, not spread
	tests := []struct {
		name   string
		stages []plan.Stage
		cancel bool // cancel the run once the VUs think
		iters  int  // iterations recorded
	}{
		{"cancelled", []plan.Stage{up, {Duration: time.Minute, Target: vus}}, true, 0},
		{"ramped down", []plan.Stage{up, {Duration: 300 * time.Millisecond, Target: vus},
			{Duration: time.Millisecond, Target: 0}, {Duration: 300 * time.Millisecond, Target: 0}}, false, vus},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := h1test.FixedServer(t)
			load := plan.Load{Model: plan.VUs, GracefulRampDown: 50 * time.Millisecond, Stages: tt.stages}
			s := scenario(load, get(url), think(time.Minute))
			s.GracefulStop = time.Minute
			rec := newTestRecorder()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			start := time.Now()
			go func() { done <- New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{}).Run(ctx) }()
			for n := 0; rec.count() < vus || vuGoroutines() > 0; n++ { // polled: parking follows the request's record
				if n == 2000 {
					t.Fatalf("%d requests, %d goroutines of VUs after %v; want %d and none", rec.count(), vuGoroutines(), time.Since(start), vus)
				}
				time.Sleep(5 * time.Millisecond)
			}
			if tt.cancel {
				cancel()
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the run did not end: its thinking VUs were not woken")
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if rec.iterations != tt.iters {
				t.Errorf("%d iterations recorded, want %d", rec.iterations, tt.iters)
			}
		})
	}
}

// vuGoroutines counts the goroutines running a VU's flow.
func vuGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "engine.(*vu).") {
			n++
		}
	}
	return n
}

// TestParkedIterationsAreTimedWithTheirThink: a parked VU's iteration ends
// when its think time does, and is recorded then.
func TestParkedIterationsAreTimedWithTheirThink(t *testing.T) {
	url := h1test.FixedServer(t)
	const z = 20 * time.Millisecond
	load := plan.Load{Model: plan.VUs, StartVUs: 2, Stages: []plan.Stage{{Duration: 10 * z, Target: 2}}}
	rec, took := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{scenario(load, get(url), think(z))}}, Options{})
	iters := rec.iterations
	if max := int(2 * took / z); iters < 4 || iters > max {
		t.Fatalf("%d iterations of 2 VUs with %v of think in %v; want 4 to %d", iters, z, took, max)
	}
	if reqs := rec.count(); reqs < iters || reqs > iters+2 {
		t.Errorf("%d requests for %d iterations: each iteration is one, and each VU's last may be cut short", reqs, iters)
	}
}

// TestParkingVUsRequestIsInterrupted: the request in flight of a VU that
// parks (its lean client watches no context) is interrupted when the VU is
// ramped down past its graceful ramp-down, or the run is cancelled, and
// recorded as such, not left to its timeout.
func TestParkingVUsRequestIsInterrupted(t *testing.T) {
	tests := []struct {
		name, err string
		stages    []plan.Stage
		cancel    bool
	}{
		{"ramped down", "ramped down", []plan.Stage{{Duration: 200 * time.Millisecond, Target: 2},
			{Duration: time.Millisecond, Target: 0}, {Duration: 2 * time.Second, Target: 0}}, false},
		{"cancelled", "", []plan.Stage{{Duration: time.Minute, Target: 2}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := faultserver.Start(t, faultserver.Hang, faultserver.Options{})
			load := plan.Load{Model: plan.VUs, StartVUs: 2, GracefulRampDown: 100 * time.Millisecond, Stages: tt.stages}
			s := scenario(load, get(srv.URL), think(10*time.Millisecond)) // VUs start spread over 10 ms
			s.ID = 0
			rec := newTestRecorder()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			start := time.Now()
			go func() { done <- New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{}).Run(ctx) }()
			if tt.cancel {
				for n := 0; srv.Requests() < 2; n++ { // polled: both requests are in flight
					if n == 2000 {
						t.Fatal("the server saw no two requests")
					}
					time.Sleep(5 * time.Millisecond)
				}
				cancel()
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(8 * time.Second): // the requests' timeout is 10 s
				t.Fatal("the run did not end: its requests in flight were not interrupted")
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.reqs) != 2 {
				t.Fatalf("%d samples in %v, want 2", len(rec.reqs), time.Since(start))
			}
			for _, q := range rec.reqs {
				if q.Kind != sample.Interrupted || !strings.Contains(q.Err, tt.err) {
					t.Fatalf("sample %+v, want interrupted (%q)", q, tt.err)
				}
			}
		})
	}
}

// TestParkedVUHoldsNoRequestState: a VU that parks holds its request state
// (a kilobyte, its lean client's request and response included) only while
// it runs; thinking, it has given it back to the engine's pool.
func TestParkedVUHoldsNoRequestState(t *testing.T) {
	url := h1test.FixedServer(t)
	s := scenario(plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: time.Hour, Target: 1}}},
		get(url), think(time.Hour))
	rec := newTestRecorder()
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{})
	e.start = time.Now()
	sc := e.scens[0]
	v := sc.readyVU()
	if v.http != nil {
		t.Fatal("a VU that parks was made with a request state")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &closedRun{sc: sc, hard: ctx, parks: true, gate: startGate{limit: 1}}
	r.slots.target, r.slots.alive, r.slots.vus = 1, []bool{false}, []*closedVU{nil}
	r.slots.targetA.Store(1)
	sc.begin()
	r.wg.Add(1)
	r.slots.mu.Lock()
	r.startVU(v, 0, time.Time{})
	c := r.slots.vus[0]
	r.slots.mu.Unlock()
	// polled: the VU parks after its request, which set parked to 0 first
	for n := 0; rec.count() < 1 || c.parked.Load() != 1; n++ {
		if n == 2000 {
			t.Fatalf("%d requests; the VU did not park", rec.count())
		}
		time.Sleep(time.Millisecond)
	}
	if v.http != nil {
		t.Error("a thinking VU holds its request state")
	}
	c.cancel(nil)
	c.interrupt()
	r.wg.Wait()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.reqs) != 1 || rec.reqs[0].Kind != sample.OK {
		t.Errorf("requests %+v, want one answered", rec.reqs)
	}
}

// TestVUStartedAtOnceDoesNotWaitItsTurn: a VU whose first start is now (a
// ramp's, not a jump's spread) is late by nothing, so it sends at once
// instead of waiting in the send turnstile.
func TestVUStartedAtOnceDoesNotWaitItsTurn(t *testing.T) {
	url := h1test.FixedServer(t)
	s := scenario(plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: time.Hour, Target: 1}}},
		get(url), think(time.Hour))
	rec := newTestRecorder()
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{})
	e.start = time.Now()
	sc := e.scens[0]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &closedRun{sc: sc, hard: ctx, parks: true, turns: newSendTurns(true)}
	if r.turns == nil {
		t.Skip("no send turnstile on this platform")
	}
	defer r.turns.close()
	var waited atomic.Int32
	r.turns.start = func(c *closedVU) { waited.Add(1); go c.run() }
	r.slots.target, r.slots.alive, r.slots.vus = 1, []bool{false}, []*closedVU{nil}
	r.slots.targetA.Store(1)
	sc.begin()
	r.wg.Add(1)
	r.slots.mu.Lock()
	r.startVU(sc.readyVU(), 0, time.Time{})
	c := r.slots.vus[0]
	r.slots.mu.Unlock()
	for n := 0; rec.count() < 1 || c.parked.Load() != 1; n++ {
		if n == 2000 {
			t.Fatalf("%d requests; the VU did not park", rec.count())
		}
		time.Sleep(time.Millisecond)
	}
	if n := waited.Load(); n != 0 {
		t.Errorf("the VU waited its turn %d times, want 0", n)
	}
	c.cancel(nil)
	c.interrupt()
	r.wg.Wait()
}

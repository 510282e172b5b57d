package engine

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"syscall"
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

// startRun runs a closed-model scenario of vus VUs that start at once (a
// ramp of 20 ms, not spread), each sending one GET to url and thinking a
// minute, with a start gate of gate whose dials hold it for grace; it
// returns the recorder, the cancel and the channel of Run's result.
// control, when set, is the dialer's.
func startRun(t *testing.T, url string, vus float64, gate int, grace time.Duration, opts Options, control func(context.Context, string, string, syscall.RawConn) error) (*testRecorder, context.CancelFunc, chan error) {
	t.Helper()
	load := plan.Load{Model: plan.VUs, Stages: []plan.Stage{{Duration: 20 * time.Millisecond, Target: vus},
		{Duration: time.Minute, Target: vus}}}
	s := scenario(load, get(url), think(time.Minute))
	rec := newTestRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, opts)
	e.startGate, e.startGateGrace = gate, grace
	e.dialer.ControlContext = control
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	return rec, cancel, done
}

// endRun cancels the run and waits, bounded, for it to end.
func endRun(t *testing.T, cancel context.CancelFunc, done chan error) {
	t.Helper()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(8 * time.Second): // the requests' timeout is 10 s
		t.Fatal("the run did not end: its queued VUs were not woken")
	}
}

// TestStartGateLetsASlowTargetSeeEveryVU: against a target that answers
// nothing, every VU still sends its first request; the gate holds a VU
// only until its request is written, not for the target's response time
// (before, 1,024 VUs a response time: 10,000 VUs against a 1 s target sent
// their first requests over 11 s). Both clients: net/http tells its write
// on a goroutine of its own.
func TestStartGateLetsASlowTargetSeeEveryVU(t *testing.T) {
	const vus, gate = 12, 3
	for _, netHTTP := range []bool{false, true} {
		t.Run(map[bool]string{false: "lean client", true: "net/http"}[netHTTP], func(t *testing.T) {
			srv := newHoldServer(t)
			rec, cancel, done := startRun(t, srv.URL, vus, gate, 0, Options{NetHTTPOnly: netHTTP}, nil)
			if !waitForWithin(10*time.Second, func() bool { _, _, seen := srv.counts(); return seen == vus }) {
				held, _, seen := srv.counts()
				t.Fatalf("%d of %d VUs sent their first request (%d held); the gate admits %d at once", seen, vus, held, gate)
			}
			endRun(t, cancel, done)
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.reqs) != vus {
				t.Fatalf("%d requests recorded, want %d", len(rec.reqs), vus)
			}
			for _, q := range rec.reqs {
				if q.Kind != sample.Interrupted {
					t.Errorf("sample %+v; want interrupted", q)
				}
			}
		})
	}
}

// dialGate holds every dial of the engine's dialer until the test releases
// it, and counts the dials held at once.
type dialGate struct {
	mu          sync.Mutex
	held        []chan error // the dials waiting, oldest first
	most, total int
}

// control is the dialer's ControlContext: it waits for release, or for the
// dial's context.
func (d *dialGate) control(ctx context.Context, _, _ string, _ syscall.RawConn) error {
	ch := make(chan error, 1) // release never blocks
	d.mu.Lock()
	d.held = append(d.held, ch)
	d.total++
	d.most = max(d.most, len(d.held))
	d.mu.Unlock()
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		d.mu.Lock()
		d.held = slices.DeleteFunc(d.held, func(c chan error) bool { return c == ch })
		d.mu.Unlock()
		return ctx.Err()
	}
}

// release lets the oldest held dial go on, or fail with err.
func (d *dialGate) release(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.held[0] <- err
	d.held = d.held[1:]
}

func (d *dialGate) counts() (held, most, total int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.held), d.most, d.total
}

var errDialRefused = errors.New("refused by the test")

// TestStartGateBoundsFirstDials: VUs that start together dial for their
// first request at most the gate's size at a time, the others waiting
// parked until one has written its request or failed; a slot is never
// lost (the run would stall) nor given back twice (more dials at once):
// not by a dial that fails, a redirect (written twice), net/http (which
// tells its write on another goroutine), or a cancel that wakes the queue.
func TestStartGateBoundsFirstDials(t *testing.T) {
	const vus, gate = 12, 3
	tests := []struct {
		name              string
		netHTTP, redirect bool
		failEvery         int // every so many dials fail
		cancel            bool
	}{
		{name: "lean client"},
		{name: "net/http", netHTTP: true},
		{name: "redirected", redirect: true},
		{name: "failed dials", failEvery: 2},
		{name: "net/http, failed dials", netHTTP: true, failEvery: 3},
		{name: "cancelled", cancel: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/r" {
					http.Redirect(w, r, "/", http.StatusFound)
				}
			}))
			t.Cleanup(srv.Close)
			dg := &dialGate{}
			// the test holds the dials as long as it takes: not its grace
			rec, cancel, done := startRun(t, srv.URL+map[bool]string{false: "/", true: "/r"}[tt.redirect], vus, gate,
				never, Options{NetHTTPOnly: tt.netHTTP}, dg.control)
			fails := 0
			for released := 0; released < vus; released++ {
				want := min(gate, vus-released)
				if !waitForWithin(10*time.Second, func() bool { held, _, _ := dg.counts(); return held == want }) {
					held, _, _ := dg.counts()
					t.Fatalf("%d dials held after %d released; want %d", held, released, want)
				}
				if _, most, _ := dg.counts(); most > gate {
					t.Fatalf("%d first dials at once; the gate admits %d", most, gate)
				}
				if tt.cancel {
					break
				}
				var err error
				if tt.failEvery > 0 && released%tt.failEvery == 0 {
					err, fails = errDialRefused, fails+1
				}
				dg.release(err)
			}
			want := map[bool]int{false: vus, true: gate}[tt.cancel]
			if !tt.cancel && !waitForWithin(10*time.Second, func() bool { return rec.count() == want }) {
				t.Fatalf("%d requests recorded, want %d", rec.count(), want)
			}
			endRun(t, cancel, done)
			_, most, total := dg.counts()
			rec.mu.Lock()
			defer rec.mu.Unlock()
			failed := 0
			for _, q := range rec.reqs {
				if q.Kind != sample.OK {
					failed++
				}
			}
			if tt.cancel {
				fails = gate // interrupted in their dial
			}
			if most > gate || total != want || len(rec.reqs) != want || failed != fails {
				t.Fatalf("%d dials, %d at once, %d requests recorded, %d failed; want %d, ≤ %d, %d, %d",
					total, most, len(rec.reqs), failed, want, gate, want, fails)
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

// TestStartGateIsLeftByAHangingDial: a VU whose first dial hangs (a full
// accept queue, a black-holed address: no answer until the connect
// timeout) leaves the gate after the dial's grace, so the VUs behind it
// start, to the healthy target, while it still hangs; the others still
// leave it once written (the gate bounds the dials that do not hang, as
// TestStartGateBoundsFirstDials checks). Before, the gate's first VUs
// held it for the whole connect timeout (30 s), and nothing else started.
func TestStartGateIsLeftByAHangingDial(t *testing.T) {
	const vus, gate = 12, 3
	for _, netHTTP := range []bool{false, true} {
		t.Run(map[bool]string{false: "lean client", true: "net/http"}[netHTTP], func(t *testing.T) {
			srv := newHoldServer(t)
			var mu sync.Mutex
			hung, ended := 0, 0
			control := func(ctx context.Context, _, _ string, _ syscall.RawConn) error {
				mu.Lock()
				hang := hung < gate // the gate's first VUs: every place taken
				if hang {
					hung++
				}
				mu.Unlock()
				if !hang {
					return nil
				}
				<-ctx.Done() // till the connect timeout (30 s) or the run's end
				mu.Lock()
				ended++
				mu.Unlock()
				return ctx.Err()
			}
			rec, cancel, done := startRun(t, srv.URL, vus, gate, 10*time.Millisecond, Options{NetHTTPOnly: netHTTP}, control)
			if !waitForWithin(10*time.Second, func() bool { _, _, seen := srv.counts(); return seen == vus-gate }) {
				_, _, seen := srv.counts()
				t.Fatalf("%d of the %d VUs behind %d hanging dials sent their request", seen, vus-gate, gate)
			}
			mu.Lock()
			still := hung == gate && ended == 0
			mu.Unlock()
			if !still {
				t.Fatal("a hanging dial ended before the VUs behind it started: they waited for it")
			}
			endRun(t, cancel, done)
			if n := rec.count(); n != vus {
				t.Fatalf("%d requests recorded, want %d", n, vus)
			}
		})
	}
}

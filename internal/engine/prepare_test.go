package engine

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestVUsArePreparedBeforeTheStart: with a start ahead, Run makes the
// open model's pre-allocated VUs before the clock starts (the gauge reads
// all of them before time zero), and the first requests still connect on
// the run's clock, so the run reports its connect times: the server
// accepts no connection before time zero, and a request records it.
func TestVUsArePreparedBeforeTheStart(t *testing.T) {
	checkLeaks(t)
	var mu sync.Mutex
	var accepted []time.Time
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			mu.Lock()
			accepted = append(accepted, time.Now())
			mu.Unlock()
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	const pre = 10
	s := scenario(plan.Load{Model: plan.ArrivalRate, StartRate: 100, Stages: []plan.Stage{{Duration: time.Second, Target: 100}},
		PreAllocatedVUs: pre, MaxVUs: 100}, get(srv.URL))
	rec := newTestRecorder()
	start := time.Now().Add(PrepareLead)
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{Start: start})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	ready := false
	for !ready && time.Now().Before(start.Add(-prepareMargin)) { // bounded by the start
		ready = e.Gauges(nil)[0].Allocated == pre
		runtime.Gosched()
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !ready {
		t.Errorf("the %d pre-allocated VUs were not all made before the start", pre)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, at := range accepted {
		if at.Before(start) {
			t.Errorf("a connection accepted %v before the start: connects belong to the run's clock", start.Sub(at))
		}
	}
	connected := 0
	for _, q := range rec.reqs {
		if q.Kind != sample.OK {
			t.Fatalf("a request of kind %v: %q", q.Kind, q.Err)
		}
		if q.Connecting > 0 {
			connected++
		}
	}
	if connected == 0 || connected != len(accepted) {
		t.Errorf("%d requests recorded a connect, the server accepted %d connections; want them equal and more than 0", connected, len(accepted))
	}
}

// TestPrepareLeavesADeadTargetToTheRequests: a target that refuses connections
// fails no preparing; the requests record the failure.
func TestPrepareLeavesADeadTargetToTheRequests(t *testing.T) {
	checkLeaks(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/"
	l.Close() // connects are refused
	s := scenario(plan.Load{Model: plan.VUs, StartVUs: 3, Stages: []plan.Stage{{Duration: 300 * time.Millisecond, Target: 3}}}, get(url), think(100*time.Millisecond))
	rec := newTestRecorder()
	start := time.Now().Add(PrepareLead)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{Start: start}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rec.reqs) == 0 {
		t.Fatal("no request recorded")
	}
	for _, q := range rec.reqs {
		if q.Kind == sample.OK {
			t.Fatalf("a request to a dead target succeeded: %+v", q)
		}
	}
}

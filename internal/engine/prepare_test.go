package engine

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestPreparedVUsStartWarm: with a start ahead, Run makes the VUs and opens
// their connections before the clock starts, so no request of the run pays
// for a connect: the server accepts every connection before time zero and
// none after, and every request records a connect time of 0.
func TestPreparedVUsStartWarm(t *testing.T) {
	cases := []struct {
		name  string
		load  plan.Load
		flow  []plan.Step
		conns int // connections accepted before the start
	}{
		{"open model: the VUs on top of the idle stack", plan.Load{Model: plan.ArrivalRate, StartRate: 100,
			Stages: []plan.Stage{{Duration: time.Second, Target: 100}}, PreAllocatedVUs: 10, MaxVUs: 100}, nil, 10},
		{"closed model: every VU", plan.Load{Model: plan.VUs, StartVUs: 5, Stages: []plan.Stage{{Duration: time.Second, Target: 5}}},
			[]plan.Step{think(50 * time.Millisecond)}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
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
			s := scenario(c.load, append([]plan.Step{get(srv.URL)}, c.flow...)...)
			rec := newTestRecorder()
			start := time.Now().Add(PrepareLead)
			runPlanInto(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, Options{Start: start}, rec)

			mu.Lock()
			defer mu.Unlock()
			before := 0
			for _, at := range accepted {
				if at.Before(start) {
					before++
				}
			}
			if before != c.conns || len(accepted) != c.conns {
				t.Errorf("%d connections accepted before the start and %d after, want %d and 0", before, len(accepted)-before, c.conns)
			}
			if len(rec.reqs) == 0 {
				t.Fatal("no request")
			}
			for _, q := range rec.reqs {
				if q.Kind != sample.OK || q.Connecting != 0 {
					t.Fatalf("a request of kind %v connected for %v; want OK on a warm connection", q.Kind, q.Connecting)
				}
			}
		})
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

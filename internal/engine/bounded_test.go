package engine

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
)

// think is a think step of d.
func think(d time.Duration) plan.Step {
	return plan.Step{Kind: plan.ThinkStep, ThinkMin: d, ThinkMax: d}
}

// TestHugeLoadsEndOnTime: absurd VU counts and rates (which validation
// should refuse, but the engine must survive) still end at the schedule's
// end plus its graceful stop, within a memory bound, creating VUs only as
// fast as the clock allows and counting missed arrivals by arithmetic.
func TestHugeLoadsEndOnTime(t *testing.T) {
	url := h1test.FixedServer(t)
	const run, grace = 500 * time.Millisecond, 200 * time.Millisecond
	cases := []struct {
		name   string
		load   plan.Load
		flow   plan.Step
		memory uint64
		check  func(t *testing.T, e *Engine, rec *testRecorder)
	}{
		{"vus: 100000000", plan.Load{Model: plan.VUs, StartVUs: 1e8, Stages: []plan.Stage{{Duration: run, Target: 1e8}}}, think(time.Minute), 1 << 30, // creation stops with the schedule: about 5 KB per idle VU, as fast as they can be made
			func(t *testing.T, e *Engine, rec *testRecorder) {
				t.Logf("%d VUs created", e.Gauges(nil)[0].Allocated)
			}},
		{"rate: 1e18", plan.Load{Model: plan.ArrivalRate, StartRate: 1e18, Stages: []plan.Stage{{Duration: run, Target: 1e18}}, PreAllocatedVUs: 5, MaxVUs: 10}, get(url), 64 << 20,
			func(t *testing.T, e *Engine, rec *testRecorder) {
				if total := float64(rec.dropped) + float64(rec.lags); total < 0.49e18 || total > 0.51e18 {
					t.Errorf("%d dropped + %d started, want 5e17 arrivals in 500ms", rec.dropped, rec.lags)
				}
				if a := e.Gauges(nil)[0].Allocated; a > 10 {
					t.Errorf("%d VUs, above maxVUs", a)
				}
			}},
		{"preAllocatedVUs: 100000000", plan.Load{Model: plan.ArrivalRate, StartRate: 20, Stages: []plan.Stage{{Duration: run, Target: 20}}, PreAllocatedVUs: 1e8, MaxVUs: 1e8}, get(url), 64 << 20,
			func(t *testing.T, e *Engine, rec *testRecorder) {
				if a := e.Gauges(nil)[0].Allocated; a > eagerVUs+10 {
					t.Errorf("%d VUs created for 10 arrivals", a)
				}
				if len(rec.reqs) != 10 || rec.dropped != 0 {
					t.Errorf("%d requests, %d dropped; want 10 and 0", len(rec.reqs), rec.dropped)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLeaks(t)
			s := scenario(c.load, c.flow)
			s.GracefulStop = grace
			p := &plan.Plan{Scenarios: []*plan.Scenario{s}}
			rec := newTestRecorder()
			e := New(p, rec, Options{})
			mem := memoryPeak()
			start := time.Now()
			if err := e.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			peak := mem()
			t.Logf("took %v, heap +%d MiB", took, peak>>20)
			if limit := run + grace + 3*time.Second; took > limit {
				t.Errorf("the run took %v, want at most %v", took, limit)
			}
			if peak > c.memory {
				t.Errorf("the heap grew by %d MiB, want at most %d MiB", peak>>20, c.memory>>20)
			}
			c.check(t, e, rec)
		})
	}
}

// TestCancelStopsVUCreationAtOnce: Ctrl-C while a scenario creates
// 100,000,000 VUs stops the creation and the run at once.
func TestCancelStopsVUCreationAtOnce(t *testing.T) {
	checkLeaks(t)
	s := scenario(plan.Load{Model: plan.VUs, StartVUs: 1e8, Stages: []plan.Stage{{Duration: time.Hour, Target: 1e8}}}, think(time.Hour))
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, newTestRecorder(), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	if !waitFor(func() bool { return e.Gauges(nil)[0].Allocated >= 1000 }) {
		t.Fatal("no VUs created")
	}
	cancel()
	stopped := time.Now()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the cancel")
	}
	if took := time.Since(stopped); took > 3*time.Second {
		t.Errorf("Run returned %v after the cancel", took)
	}
	t.Logf("%d VUs created", e.Gauges(nil)[0].Allocated)
}

// TestMemoryPerVU measures what a VU costs, idle and after a request on
// each client, so that validation can say how many VUs memory allows.
func TestMemoryPerVU(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory is not a VU's")
	}
	url := h1test.FixedServer(t)
	const vus = 2000
	cases := []struct {
		name  string
		flow  []plan.Step
		opts  Options
		limit uint64 // bytes per VU
	}{
		{"idle", []plan.Step{think(time.Hour)}, Options{}, 16 << 10},
		{"after a request, lean client", []plan.Step{get(url), think(time.Hour)}, Options{}, 48 << 10},
		{"after a request, net/http", []plan.Step{get(url), think(time.Hour)}, Options{NetHTTPOnly: true}, 96 << 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLeaks(t)
			// a quick ramp starts every VU now: VUs that all join at once are spread over their think time
			s := scenario(plan.Load{Model: plan.VUs, Stages: []plan.Stage{{Duration: 100 * time.Millisecond, Target: vus}, {Duration: time.Hour, Target: vus}}}, c.flow...)
			rec := newTestRecorder()
			e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, c.opts)
			requests := func() int { rec.mu.Lock(); defer rec.mu.Unlock(); return len(rec.reqs) }
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- e.Run(ctx) }()
			want := 0
			if len(c.flow) > 1 {
				want = vus
			}
			// 2,000 dials and requests: 3 s was too short on a busy 2-core host (half the runs at load 30)
			ok := waitForWithin(60*time.Second, func() bool {
				return e.Gauges(nil)[0].Allocated == vus && int(e.scens[0].inflight.Load()) == 0 && requests() >= want
			})
			runtime.GC()
			runtime.ReadMemStats(&after)
			cancel()
			<-done
			if !ok {
				t.Fatal("the VUs did not all start")
			}
			per := (inUse(&after) - inUse(&before)) / vus
			t.Logf("%d bytes per VU", per)
			if per > c.limit {
				t.Errorf("%d bytes per VU, want at most %d", per, c.limit)
			}
		})
	}
}

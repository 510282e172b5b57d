package engine

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestOverloadDegradesLikeACappedPool offers far more than this machine can
// send, with the default VU ceiling: the run ends on time, the pool stays
// small enough to keep every connection (no "too many open files"), and
// every arrival it could not start is counted as dropped, so that dropped
// + started is the schedule's arithmetic, rate × duration, and started is
// what the server received.
func TestOverloadDegradesLikeACappedPool(t *testing.T) {
	checkLeaks(t)
	srv, hits := okServer(t, 0)
	const (
		rate     = 1_000_000.0
		duration = 2 * time.Second
	)
	// the graceful stop lets the 1,024 VUs' last requests end; under -race
	// at load 20 only 400-900 of them did within 1 s, the rest cut off
	grace := time.Second
	if raceEnabled {
		grace = 5 * time.Second
	}
	load := plan.Load{Model: plan.ArrivalRate, StartRate: rate, Stages: []plan.Stage{{Duration: duration, Target: rate}},
		PreAllocatedVUs: 1024, MaxVUs: 100_000} // plan's defaults for this rate: max_vus at its cap
	s := scenario(load, get(srv.URL))
	s.GracefulStop = grace
	p := &plan.Plan{Scenarios: []*plan.Scenario{s}}
	rec := newTestRecorder()
	rec.tally = &tally{}
	var notes []string
	e := New(p, rec, Options{Notify: func(m string) { notes = append(notes, m) }})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	began := time.Now()
	if err := e.Run(ctx); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	g := e.Gauges(nil)[0]
	t.Logf("took %v; %d started, %d dropped, %d VUs, held at %d by %q; %v", took, rec.lags, rec.dropped, g.Allocated, g.HeldAt, g.HeldBy, notes)

	if limit := prepareBudget + duration + grace + 2*time.Second; took > limit {
		t.Errorf("the run took %v, want at most %v (the plan, its graceful stop and a margin)", took, limit)
	}
	offered := int64(rate * duration.Seconds())
	if started := int64(rec.lags); int64(rec.dropped)+started != offered {
		t.Errorf("%d dropped + %d started = %d, want the %d arrivals of the schedule", rec.dropped, started, int64(rec.dropped)+started, offered)
	}
	if rec.dropped == 0 {
		t.Error("no iteration dropped at a rate no machine sends")
	}
	if n := hits.Load(); n != int64(rec.lags) || rec.tally.n != rec.lags {
		t.Errorf("the server received %d requests, %d were recorded, %d iterations started; want all equal", n, rec.tally.n, rec.lags)
	}
	for k, n := range rec.tally.byKind {
		if n > 0 && sample.Kind(k) != sample.OK {
			t.Errorf("%d requests of kind %v, e.g. %q", n, sample.Kind(k), rec.tally.example[k].Err)
		}
	}
	// (a host too busy to reach the preallocation never needed to hold it:
	// under -race at load 20, 543 of 1,024 VUs made, its arrivals 3 s late)
	if g.Allocated > 10_000 || g.HeldBy == "" && g.Allocated > int64(load.PreAllocatedVUs) {
		t.Errorf("%d VUs, the pool held by %q: the pool grew past what the generator could serve", g.Allocated, g.HeldBy)
	}
	if len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "the generator could not keep up: ") {
		t.Errorf("no notice of the drops and their cause: %q", notes)
	}
}

// TestSlowTargetBeyondThePool offers a slow loopback target far more than
// a small pool can serve: the pool stays within its bound (max_vus, or the
// VUs the open-file limit leaves room for), every arrival that could not
// start is counted as dropped (dropped = planned − started, and started is
// what the server received), the notice names what held the pool, and the
// run overshoots its plan by at most the graceful stop.
func TestSlowTargetBeyondThePool(t *testing.T) {
	const (
		rate     = 1000.0
		duration = 2 * time.Second
		grace    = 500 * time.Millisecond
		delay    = 50 * time.Millisecond
	)
	cases := []struct {
		name   string
		maxVUs int
		files  int64 // the open-file limit the engine reads; 0: the process's
		bound  int64
		heldBy string
		says   string
	}{
		{"held by max_vus", 10, 0, 10, "max_vus", "held at 10 by max_vus"},
		{"held by the open-file limit", 100_000, 100, vusForFiles(100), "open_files", "open-file limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLeaks(t)
			srv, hits := okServer(t, delay)
			load := plan.Load{Model: plan.ArrivalRate, StartRate: rate, Stages: []plan.Stage{{Duration: duration, Target: rate}},
				PreAllocatedVUs: 5, MaxVUs: c.maxVUs}
			s := scenario(load, get(srv.URL))
			s.GracefulStop = grace
			rec := newTestRecorder()
			var notes []string
			e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, rec, Options{Notify: func(m string) { notes = append(notes, m) }})
			if c.files > 0 {
				e.files = c.files
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			began := time.Now()
			if err := e.Run(ctx); err != nil {
				t.Fatal(err)
			}
			took := time.Since(began)
			g := e.Gauges(nil)[0]
			t.Logf("took %v; %d started, %d dropped, %d VUs; %q", took, rec.lags, rec.dropped, g.Allocated, notes)
			planned := int64(rate * duration.Seconds())
			if started := int64(rec.lags); int64(rec.dropped) != planned-started || started == 0 {
				t.Errorf("%d dropped, %d started: want dropped = %d planned − started", rec.dropped, started, planned)
			}
			if n := hits.Load(); n != int64(rec.lags) || len(rec.reqs) != rec.lags {
				t.Errorf("the server received %d requests, %d were recorded, %d iterations started; want all equal", n, len(rec.reqs), rec.lags)
			}
			if g.Allocated > c.bound || g.HeldBy != c.heldBy {
				t.Errorf("%d VUs, held by %q; want at most %d, held by %q", g.Allocated, g.HeldBy, c.bound, c.heldBy)
			}
			// a slow target, not the generator: the notice must not blame loadlens
			if all := strings.Join(notes, "\n"); !strings.Contains(all, "every VU was busy waiting for the target: ") || !strings.Contains(all, c.says) ||
				strings.Contains(all, "could not keep up") {
				t.Errorf("the notices %q do not name the cause (%q)", notes, c.says)
			}
			// the same facts as data, for callers that weigh them (a capacity search's advice)
			if ds := e.Drops(); len(ds) != 1 || ds[0].N != int64(rec.dropped) || !ds[0].ByTarget || !strings.Contains(ds[0].Held, c.says) ||
				!slices.Contains(notes, ds[0].Notice()) {
				t.Errorf("drops %+v; want one of %d held by the target (%q), whose Notice is one of %q", ds, rec.dropped, c.says, notes)
			}
			if limit := prepareBudget + duration + grace + time.Second; took > limit {
				t.Errorf("the run took %v, want at most %v (the plan, its graceful stop and a margin)", took, limit)
			}
		})
	}
}

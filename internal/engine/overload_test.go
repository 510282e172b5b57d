package engine

import (
	"context"
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
		grace    = time.Second
	)
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
	if g.Allocated > 10_000 || g.HeldBy == "" {
		t.Errorf("%d VUs, the pool held by %q: the pool grew past what the generator could serve", g.Allocated, g.HeldBy)
	}
	if len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "the generator could not keep up: ") {
		t.Errorf("no notice of the drops and their cause: %q", notes)
	}
}

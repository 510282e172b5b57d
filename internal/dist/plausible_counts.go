package dist

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// refuseSecond says why second s, from the agent running segment seg of p
// whose seconds before are t, cannot be what it measured: its requests
// (implausible), its other counts (implausibleCounts), what it keys by a
// status or a kind (implausibleKeys), or its check runs and drops so far
// (tally). nil when it can be, t then holding it too.
func refuseSecond(p *plan.Plan, seg plan.Segment, t *tally, s *metrics.Snapshot) error {
	if err := implausible(p, seg, s); err != nil {
		return err
	}
	if err := implausibleCounts(p, seg, s); err != nil {
		return err
	}
	if err := implausibleKeys(&p.Layout, s); err != nil {
		return err
	}
	return t.add(p, seg, s)
}

// implausibleCounts says why the counts of second s, from the agent running
// segment seg of p, cannot be what it measured, beside its requests
// (implausible): an endpoint's failures or truncated bodies past its
// requests, a scenario's drops or offered arrivals past its share of an
// open model's schedule (a closed model has none), or its VUs past its
// share of the test's. nil when they can be.
func implausibleCounts(p *plan.Plan, seg plan.Segment, s *metrics.Snapshot) error {
	l := &p.Layout
	for i := range s.Endpoints {
		if err := failuresPast(&s.Endpoints[i]); err != nil {
			return fmt.Errorf("endpoint %q: %w", l.Endpoints[i].Name, err)
		}
	}
	for i := range s.Scenarios {
		if err := scenarioPast(p.Scenarios[i], seg, s.Second, &s.Scenarios[i]); err != nil {
			return fmt.Errorf("scenario %q: %w", l.Scenarios[i].Name, err)
		}
	}
	return nil
}

// failuresPast says why e's failures, by kind, or its truncated bodies
// cannot be of its requests: each request has one outcome, and one body.
func failuresPast(e *metrics.EndpointSecond) error {
	var sum int64 // at most e.Requests: no sum below overflows
	for k, n := range e.Failures {
		if n < 0 {
			return fmt.Errorf("%s failures: negative value %d", sample.Kind(k), n)
		}
		if n > e.Requests-sum {
			return fmt.Errorf("%s %s failures, and %s of other kinds, in a second of %s", units.Count(n), sample.Kind(k), units.Count(sum), units.CountOf(e.Requests, "request", "requests"))
		}
		sum += n
	}
	if e.Truncated < 0 || e.Truncated > e.Requests {
		return fmt.Errorf("%s truncated bodies in a second of %s", units.Count(e.Truncated), units.CountOf(e.Requests, "request", "requests"))
	}
	return nil
}

// scenarioPast says why sc, scenario c's second sec from segment seg,
// cannot be: negative, drops or offers in a closed model, more arrivals
// offered than the segment's schedule has in the second (the agent sets
// them from it: engine.Offered), or more VUs than the segment runs.
func scenarioPast(c *plan.Scenario, seg plan.Segment, sec int, sc *metrics.ScenarioSecond) error {
	for _, f := range []struct {
		what string
		n    int64
	}{{"dropped iterations", sc.Dropped}, {"offered arrivals", sc.Offered}, {"VUs", sc.VUs}, {"allocated VUs", sc.VUsMax}} {
		if f.n < 0 {
			return fmt.Errorf("%s: negative value %d", f.what, f.n)
		}
	}
	l := &c.Load
	if l.Model != plan.ArrivalRate && (sc.Dropped > 0 || sc.Offered > 0) {
		return fmt.Errorf("%s dropped and %s offered iterations in a closed model, which has neither", units.Count(sc.Dropped), units.Count(sc.Offered))
	}
	from := time.Duration(sec)*time.Second - c.StartTime
	if most := dueBefore(l, seg, from+time.Second) - dueBefore(l, seg, from); l.Model == plan.ArrivalRate && sc.Offered > most {
		return fmt.Errorf("%s arrivals offered in second %d, more than its share of the schedule (%s)", units.Count(sc.Offered), sec, units.Count(most))
	}
	if most := segmentVUs(l, seg); max(sc.VUs, sc.VUsMax) > most {
		return fmt.Errorf("%s active and %s allocated, more than its share of the test's (%s)",
			units.CountOf(sc.VUs, "VU", "VUs"), units.Count(sc.VUsMax), units.Count(most))
	}
	return nil
}

// dueBefore is the segment's arrivals of open model l due before offset t
// of its schedule, as the agent's engine counts them (engine.Offered).
func dueBefore(l *plan.Load, seg plan.Segment, t time.Duration) int64 {
	if t <= 0 || l.Model != plan.ArrivalRate {
		return 0
	}
	return plan.NewArrivals(l, seg).SkipUntil(t)
}

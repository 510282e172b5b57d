package dist

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// tally is what an agent's seconds so far add up to, for the bounds one
// second cannot show: a check's runs count in the second its request
// ended in, or a later one when the collector took that second between
// the two records (metrics' windowAt), and so do drops; neither comes
// before what it is of. Its agent's reader alone touches it, and a second
// it refuses ends the agent, so the sums it holds ahead of the merge are
// never read again.
type tally struct {
	requests []int64 // per endpoint
	runs     []int64 // per check: passes and fails
	dropped  []int64 // per scenario
	perReq   []int64 // per check: the most runs one request makes (checkRuns)
}

// add takes second s from the agent running segment seg of p into t, or
// says why its check runs or drops cannot follow the seconds before.
func (t *tally) add(p *plan.Plan, seg plan.Segment, s *metrics.Snapshot) error {
	l := &p.Layout
	if t.perReq == nil {
		t.requests, t.runs, t.dropped = make([]int64, len(l.Endpoints)), make([]int64, len(l.Checks)), make([]int64, len(l.Scenarios))
		t.perReq = checkRuns(p)
	}
	for i := range s.Endpoints {
		t.requests[i] += s.Endpoints[i].Requests // each at most vuSecond (implausible)
	}
	for i := range s.Checks {
		if err := t.check(p, seg, int32(i), &s.Checks[i]); err != nil {
			return fmt.Errorf("check %q: %w", l.Checks[i].Name, err)
		}
	}
	for i := range s.Scenarios {
		c := p.Scenarios[i]
		// a second more than due, against rounding in the scheduler's own arithmetic
		due := dueBefore(&c.Load, seg, time.Duration(s.Second+2)*time.Second-c.StartTime)
		if n := s.Scenarios[i].Dropped; n > due-t.dropped[i] { // both non-negative (implausibleCounts)
			return fmt.Errorf("scenario %q: %s dropped iterations, and %s before, more than its share of the schedule has due by the end of second %d (%s)",
				l.Scenarios[i].Name, units.Count(n), units.Count(t.dropped[i]), s.Second, units.Count(due))
		}
		t.dropped[i] += s.Scenarios[i].Dropped
	}
	return nil
}

// check takes check id's second c into t: its runs so far at most perReq
// for each request of its endpoint so far; a session's checks judge each
// message, which are not requests, so theirs are bounded as a second's
// requests are (vuSecond).
func (t *tally) check(p *plan.Plan, seg plan.Segment, id int32, c *metrics.CheckSecond) error {
	if c.Passes < 0 || c.Fails < 0 {
		return fmt.Errorf("negative value %d", min(c.Passes, c.Fails))
	}
	if err := readsPast(c); err != nil {
		return err
	}
	info := p.Layout.Checks[id]
	runs := min(c.Passes, maxCount-c.Fails) + c.Fails // saturates: an overflow is past every bound
	if t.perReq[id] == 0 {
		if most := vuSecond(p, info.Scenario, seg); runs > most {
			return fmt.Errorf("%s", tooMany(runs, "runs", p, info.Scenario, seg))
		}
		return nil
	}
	reqs := t.requests[info.Endpoint]
	most := min(reqs, maxCount/t.perReq[id]) * t.perReq[id]
	if runs > most-t.runs[id] {
		return fmt.Errorf("%s passed and %s failed, and %s run before, more than its %s can run (%s, %s a request)",
			units.Count(c.Passes), units.Count(c.Fails), units.Count(t.runs[id]), units.CountOf(reqs, "request", "requests"),
			units.Count(most), units.Count(t.perReq[id]))
	}
	t.runs[id] += runs
	return nil
}

// maxCount is the largest int64.
const maxCount = 1<<63 - 1

// checkRuns returns, for each check of p's layout, the most times one
// request runs it: the most times one request step lists it among its
// checks and its extractions without a default (which count as checks).
// 0 for a check a session step runs, and for one no request step does.
func checkRuns(p *plan.Plan) []int64 {
	out := make([]int64, len(p.Layout.Checks))
	session := make([]bool, len(out))
	for _, sc := range p.Scenarios {
		plan.Walk(sc.Flow, func(st *plan.Step) {
			if st.Session != nil {
				markSession(st.Session, session)
			}
			if st.Request == nil {
				return
			}
			step := map[int32]int64{}
			for _, c := range st.Request.Checks {
				step[c.ID]++
			}
			for _, e := range st.Request.Extract {
				if e.Default == nil {
					step[e.Check]++
				}
			}
			for id, n := range step {
				if id >= 0 && int(id) < len(out) {
					out[id] = max(out[id], n)
				}
			}
		})
	}
	for id := range out {
		if session[id] {
			out[id] = 0
		}
	}
	return out
}

// markSession marks the checks session step s runs.
func markSession(s *plan.Session, session []bool) {
	mark := func(id int32) {
		if id >= 0 && int(id) < len(session) {
			session[id] = true
		}
	}
	for _, c := range s.Checks {
		mark(c.ID)
	}
	for _, e := range s.Extract {
		mark(e.Check)
	}
	for _, r := range s.Replies {
		for _, e := range r.Extract {
			mark(e.Check)
		}
	}
}

// readsPast says why what check second c read cannot be of its outcomes:
// bodies it could not read are failures, and its outcomes by status are
// some of its passes and fails (diagnose tells a race from a 404 by them).
func readsPast(c *metrics.CheckSecond) error {
	if c.NotJSON < 0 || c.NoValue < 0 || c.NotJSON > c.Fails-c.NoValue {
		return fmt.Errorf("%s failures on bodies not JSON and %s without the value, of %s failures", units.Count(c.NotJSON), units.Count(c.NoValue), units.Count(c.Fails))
	}
	var passes, fails int64
	for _, st := range c.Statuses {
		if st.Passes < 0 || st.Fails < 0 || st.Passes > c.Passes-passes || st.Fails > c.Fails-fails {
			return fmt.Errorf("status %d: %s passed and %s failed, past the check's %s and %s", st.Status, units.Count(st.Passes), units.Count(st.Fails), units.Count(c.Passes), units.Count(c.Fails))
		}
		passes, fails = passes+st.Passes, fails+st.Fails
	}
	return nil
}

package dist

import (
	"math"
	"slices"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
)

// Agents describes every agent for the report's per-agent table. Every
// agent's achieved rate is over the same time, the load's (planned, or cut
// short), a lost agent's too: so the agents' rates add up to the run's, and
// a lost agent's says what it did not deliver.
func (g *generator) Agents() []report.Agent {
	g.mu.Lock()
	defer g.mu.Unlock()
	length := plannedLength(g.plan)
	ran := length
	if g.cutAt > 0 && g.cutAt < ran {
		ran = g.cutAt // cut short (Ctrl-C, abort_on_fail): over the time the load ran, not the plan
	}
	if ran <= 0 { // no planned length (iterations): the seconds the agents sent
		ran = time.Duration(g.seconds) * time.Second
	}
	out := make([]report.Agent, 0, len(g.agents))
	for _, a := range g.agents {
		row := report.Agent{Name: a.name, Addr: a.addr, Segment: a.seg.String(), Offset: a.offset, RTT: a.rtt,
			Offered: math.NaN(), Requests: a.requests, Iters: a.iterations, Errors: a.errors, Dropped: a.dropped, NotSent: a.notSent, CPU: math.NaN(), CPUMax: a.cpuMax,
			LagP99: a.lagMax, Seconds: a.next, Missing: a.missing, LostAt: -1}
		if planned, open := plannedBetween(g.plan, a.seg, 0, -1); open && length > 0 {
			row.Offered = float64(planned) / length.Seconds()
			row.OpenOnly = hasVUScenario(g.plan)
		}
		if ran > 0 {
			// over the planned length, as offered is: the graceful stop and
			// a flow's last think times run past it without adding load
			row.Achieved, row.Over = float64(a.iterations)/ran.Seconds(), ran
		}
		switch {
		case a.cpuWall > 0: // over the time measured: a last second cut short weighs what it lasted
			row.CPU = a.cpuTime / a.cpuWall
		case a.cpuN > 0:
			row.CPU = a.cpuSum / float64(a.cpuN)
		}
		if a.lost {
			from := time.Duration(a.lostAt) * time.Second
			row.LostAt, row.LostWhy, row.LostSeen = a.lostAt, a.lostWhy, a.lostSeen
			row.LostPlan, _ = plannedBetween(g.plan, a.seg, from, -1)
			row.Unreported, _ = plannedBetween(g.plan, a.seg, from, max(a.lostSeen, from))
			row.Missing = slices.DeleteFunc(slices.Clone(a.missing), func(s int) bool { return s >= a.lostAt }) // its loss says so
		}
		out = append(out, row)
	}
	return out
}

// hasVUScenario reports whether the test has a scenario its VUs pace
// (not arrival-rate): its iterations are in no schedule.
func hasVUScenario(p *plan.Plan) bool {
	for _, s := range p.Scenarios {
		if s.Load.Model != plan.ArrivalRate {
			return true
		}
	}
	return false
}

// plannedBetween counts the arrivals the open-model scenarios plan for seg
// from `from` after the run's start to `to` (to < 0: the end), by the
// schedule's arithmetic; open is false when the test has no open-model scenario.
func plannedBetween(p *plan.Plan, seg plan.Segment, from, to time.Duration) (n int64, open bool) {
	for _, s := range p.Scenarios {
		if s.Load.Model != plan.ArrivalRate {
			continue
		}
		open = true
		upTo := func(t time.Duration) int64 {
			if t <= s.StartTime {
				return 0
			}
			return plan.NewArrivals(&s.Load, seg).SkipUntil(t - s.StartTime)
		}
		end := s.StartTime + s.Load.Duration() + time.Hour
		if to >= 0 {
			end = to
		}
		n += upTo(end) - upTo(from)
	}
	return n, open
}

// plannedLength is how long the test's load is planned to last.
func plannedLength(p *plan.Plan) time.Duration {
	var d time.Duration
	for _, s := range p.Scenarios {
		if s.Load.Model != plan.Iterations {
			d = max(d, s.StartTime+s.Load.Duration())
		}
	}
	return d
}

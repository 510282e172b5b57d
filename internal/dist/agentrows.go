package dist

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
)

// Agents describes every agent for the report's per-agent table.
func (g *generator) Agents() []report.Agent {
	g.mu.Lock()
	defer g.mu.Unlock()
	length := plannedLength(g.plan)
	out := make([]report.Agent, 0, len(g.agents))
	for _, a := range g.agents {
		row := report.Agent{Name: a.name, Addr: a.addr, Segment: a.seg.String(), Offset: a.offset, RTT: a.rtt,
			Offered: math.NaN(), Requests: a.requests, Iters: a.iterations, Errors: a.errors, Dropped: a.dropped, CPU: math.NaN(), CPUMax: a.cpuMax,
			LagP99: a.lagMax, Seconds: a.next, Missing: a.missing, LostAt: -1}
		if planned, open := plannedArrivals(g.plan, a.seg, -1); open && length > 0 {
			row.Offered = float64(planned) / length.Seconds()
		}
		ran := length
		if g.cutAt > 0 && g.cutAt < ran {
			ran = g.cutAt // cut short (Ctrl-C, abort_on_fail): over the time the load ran, not the plan
		}
		switch {
		case !a.lost && ran > 0:
			// over the planned length, as offered is: the graceful stop and
			// a flow's last think times run past it without adding load
			row.Achieved = float64(a.iterations) / ran.Seconds()
		case a.next > 0:
			row.Achieved = float64(a.iterations) / float64(a.next)
		}
		switch {
		case a.cpuWall > 0: // over the time measured: a last second cut short weighs what it lasted
			row.CPU = a.cpuTime / a.cpuWall
		case a.cpuN > 0:
			row.CPU = a.cpuSum / float64(a.cpuN)
		}
		if a.lost {
			row.LostAt, row.LostWhy = a.lostAt, a.lostWhy
			row.LostPlan, _ = plannedArrivals(g.plan, a.seg, a.lostAt)
		}
		out = append(out, row)
	}
	return out
}

// plannedArrivals counts the arrivals the open-model scenarios plan for seg
// from second `from` of the run to the end (from < 0: all of them), by the
// schedule's arithmetic; open is false when the test has no open-model scenario.
func plannedArrivals(p *plan.Plan, seg plan.Segment, from int) (n int64, open bool) {
	for _, s := range p.Scenarios {
		if s.Load.Model != plan.ArrivalRate {
			continue
		}
		open = true
		all := plan.NewArrivals(&s.Load, seg).SkipUntil(s.Load.Duration() + time.Hour)
		before := int64(0)
		if from > 0 {
			before = plan.NewArrivals(&s.Load, seg).SkipUntil(max(0, time.Duration(from)*time.Second-s.StartTime))
		}
		n += all - before
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

package diagnose

import (
	"sort"

	"github.com/loadlens/loadlens/internal/series"
)

// agentLoad is one agent's strain over a finding's seconds: its CPU share,
// scheduler lag and drops, each with its source.
type agentLoad struct {
	name                   string // the AgentLabel value, e.g. "agent 3 10.0.0.7:6565"
	share, cores, lag, drp string // sources; "" when the agent has no such series
	shareMed, lagMed       float64
	dropped                float64
}

// saturated reports whether the agent was short of CPU, late or dropping
// through the seconds, by the generator rule's own thresholds.
func (a *agentLoad) saturated() bool {
	return a.shareMed >= genCPU || a.lagMed >= genLagAbs || a.dropped >= 1
}

// agentLoads reads every agent's per-agent series over from..to, in the
// order of their names.
func (c *context) agentLoads(from, to int) []*agentLoad {
	byName := map[string]*agentLoad{}
	var out []*agentLoad
	for _, s := range c.set {
		name := s.Label(AgentLabel)
		if name == "" || s.Label("target") != AgentsTarget {
			continue
		}
		a := byName[name]
		if a == nil {
			a = &agentLoad{name: name}
			byName[name] = a
			out = append(out, a)
		}
		med := func(s *series.Series) (string, float64) {
			src := c.ofSeries(s)
			return src, aggregate(c.values(src), StatMedian, from, to)
		}
		switch s.Name {
		case AgentCPUShare:
			a.share, a.shareMed = med(s)
		case AgentCPU:
			a.cores = c.ofSeries(s)
		case AgentLag:
			a.lag, a.lagMed = med(s)
		case AgentDropped:
			a.drp = c.ofSeries(s)
			a.dropped = aggregate(c.values(a.drp), StatSum, from, to)
		}
	}
	for _, a := range out { // NaN (no point in the seconds) reads as not strained
		a.shareMed, a.lagMed, a.dropped = zeroNaN(a.shareMed), zeroNaN(a.lagMed), zeroNaN(a.dropped)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func zeroNaN(v float64) float64 {
	if v != v {
		return 0
	}
	return v
}

// weakAgent names the agent that limited a distributed run between from
// and to when some agents were saturated and others not: the weakest
// agent limits the test first, and the busiest figure alone does not say
// which one, or that the others had room. It returns nothing when every
// agent was alike (all saturated or none), or the run had one agent.
func (c *context) weakAgent(b *builder, from, to int) []any {
	loads := c.agentLoads(from, to)
	var weak, others []*agentLoad
	for _, a := range loads {
		if a.saturated() {
			weak = append(weak, a)
		} else {
			others = append(others, a)
		}
	}
	if len(weak) == 0 || len(others) == 0 {
		return nil
	}
	sort.SliceStable(weak, func(i, j int) bool { return strain(weak[i]) > strain(weak[j]) })
	w := weak[0]
	cpuBound := w.shareMed >= genCPU
	parts := []any{name(w.name), " was saturated:"}
	if !cpuBound { // late or dropping with CPU to spare: "saturated" would blame a CPU that was idle
		parts[1] = " fell behind:"
	}
	sep, main := " ", ref(-1)
	first := func(r ref) ref {
		if main < 0 {
			main = r
		}
		return r
	}
	if w.share != "" && cpuBound {
		share := first(b.add(c.fig(w.share, StatMedian, from, to, UnitFraction, "share of its cores "+w.name+" used (median)")))
		parts = append(parts, sep, "CPU ", share, " of its cores")
		if w.cores != "" {
			cores := b.add(c.fig(w.cores, StatMedian, from, to, UnitCores, "cores "+w.name+" used (median)"))
			parts = append(parts, " (", cores, ")")
		}
		sep = ", "
	}
	if w.lag != "" {
		lag := first(b.add(c.fig(w.lag, StatMax, from, to, UnitDuration, "the highest scheduler lag p99 of "+w.name)))
		parts = append(parts, sep, "lag ", name("p99"), " up to ", lag)
		sep = ", "
	}
	if w.drp != "" && w.dropped >= 1 {
		d := first(b.add(c.fig(w.drp, StatSum, from, to, UnitCount, "iterations "+w.name+" dropped")))
		parts = append(parts, sep, d, " dropped")
	}
	if w.share != "" && !cpuBound && main >= 0 {
		share := b.add(c.fig(w.share, StatMedian, from, to, UnitFraction, "share of its cores "+w.name+" used (median)"))
		parts = append(parts, ", though its CPU was only ", share, " of its cores")
	}
	if len(weak) > 1 {
		parts = append(parts, " (and not it alone)")
	}
	// the other agents' room: the highest CPU share any of them had
	var top *agentLoad
	for _, a := range others {
		if a.share != "" && (top == nil || a.shareMed > top.shareMed) {
			top = a
		}
	}
	if top != nil {
		f := b.add(c.fig(top.share, StatMedian, from, to, UnitFraction, "share of its cores the busiest of the other agents used (median), "+top.name))
		parts = append(parts, "; the other agents at most ", f)
	}
	if main < 0 {
		return nil // it was saturated by a figure it has no series of: nothing to show
	}
	b.evidence(main, parts...)
	return parts
}

// strain orders saturated agents: the most short of CPU, then the latest.
func strain(a *agentLoad) float64 { return a.shareMed + a.lagMed/genLagAbs + a.dropped }

package diagnose

import (
	"github.com/loadlens/loadlens/internal/series"
)

// hostView is a generator's host whose CPU a run read: the coordinator's
// own (agent "": this process, or agents all on this host) or an agent's,
// as it reported it each second.
type hostView struct {
	host, cpus string // sources of its busy cores and its CPUs
	own        string // source of the cores loadlens used there; "": not recorded
	agent      string // the AgentLabel of the agent on it; "": the coordinator's host
	name       string // with agent: its host's name
	steal      bool   // its steal was read (HostSteal)
}

// hostViews returns the host the run read its CPU of, when it read this
// host's (SameHost agents among them: their host is this one, counted
// once); otherwise each agent's that reported it and was late itself
// between from and to.
func (c *context) hostViews(from, to int) []hostView {
	if host, cpus, ok := c.hostSources(); ok {
		v := hostView{host: host, cpus: cpus, steal: len(c.set.Find(HostSteal)) > 0}
		if used, _, _, ok := c.generatorSources(); ok {
			v.own = used
		}
		return []hostView{v}
	}
	var out []hostView
	for _, h := range c.set.Find(AgentHostCPU) {
		n := sibling(c.set, AgentHostCPUs, h)
		agent := h.Label(AgentLabel)
		if n == nil || agent == "" || !c.agentLate(h, from, to) {
			continue
		}
		v := hostView{host: c.ofSeries(h), cpus: c.ofSeries(n), agent: agent, name: h.Label(AgentHostLabel)}
		if own := agentSibling(c.set, AgentCPU, h); own != nil {
			v.own = c.ofSeries(own)
		}
		out = append(out, v)
	}
	return out
}

// agentSibling is the agent series named name of the agent whose host
// series h is.
func agentSibling(set series.Set, name string, h *series.Series) *series.Series {
	for _, o := range set {
		if o.Name == name && sameLabels(o.Labels, h.Labels, []string{AgentHostLabel}) {
			return o
		}
	}
	return nil
}

// agentLate reports whether the agent whose host series h is was late
// between from and to, by its own scheduler lag or scheduling latency p99
// (genLagAbs): a busy host beside an agent on time did not slow the run.
// An agent that recorded neither is taken as late, the run being late.
func (c *context) agentLate(h *series.Series, from, to int) bool {
	recorded := false
	for _, name := range []string{AgentLag, AgentStall} {
		if s := agentSibling(c.set, name, h); s != nil {
			recorded = true
			if aggregate(c.values(c.ofSeries(s)), StatMax, from, to) >= genLagAbs {
				return true
			}
		}
	}
	return !recorded
}

// busiestHost is the view whose host was busiest between from and to,
// as a share of its CPUs; ok is false when there is none.
func (c *context) busiestHost(views []hostView, from, to int) (hostView, bool) {
	best, top := -1, -1.0
	for i, v := range views {
		busy := aggregate(c.values(v.host), StatMedian, from, to)
		n := aggregate(c.values(v.cpus), StatMedian, from, to)
		if n > 0 && busy/n > top {
			best, top = i, busy/n
		}
	}
	if best < 0 {
		return hostView{}, false
	}
	return views[best], true
}

// whose names an agent's host in a host-busy title: the agent and its
// host's name.
func (v hostView) whose() []any {
	who := []any{name(v.agent)}
	if v.name != "" {
		who = append(who, " (host ", name(v.name), ")")
	}
	return append(who, ": its host was ")
}

package diagnose

import (
	"slices"

	"github.com/loadlens/loadlens/internal/series"
)

// genThrottled is the share of loadlens's own cgroup's CPU periods
// throttled, for genSeconds whole seconds in a row, from which its quota,
// not the target, limited the test: the targets' cpuThrottled, kubernetes-
// mixin's CPUThrottlingHigh. Each throttled period stops every loadlens
// thread for its rest (up to tens of ms of a 100 ms period), and answers
// arriving then are timed when it resumes; in a quarter of the periods
// that delay is in the tail percentiles. Below it (1–5 %) it costs a few
// ms at p99 at most, and loadlens's CPU share says the rest.
const genThrottled = 0.25

// quotaRemedy is the generator-bound remedy of its own quota used up.
const quotaRemedy = "raise loadlens's CPU limit (the pod's resources.limits.cpu) or spread the load over more agents: its container's quota, not the target, set the pace"

// ownQuota is the sources of a generator's own cgroup's quota in cores,
// its periods and throttled periods per second, and the time held back;
// agent is the AgentLabel of the agent it held, "" for loadlens here.
type ownQuota struct{ cores, periods, throttled, held, agent string }

// generatorQuotas returns the sources of the quotas that held loadlens's
// own process, or each agent's, recorded beside their other series; none
// when none did (a laptop, a container without a CPU limit).
func (c *context) generatorQuotas() []ownQuota {
	var out []ownQuota
	for _, q := range c.set.Find(GeneratorQuota) {
		o := ownQuota{cores: c.ofSeries(q), agent: q.Label(AgentLabel)}
		if p := sibling(c.set, GeneratorPeriods, q); p != nil {
			o.periods = c.ofSeries(p)
		}
		if t := sibling(c.set, GeneratorThrottled, q); t != nil {
			o.throttled = c.ofSeries(t)
		}
		if h := sibling(c.set, GeneratorThrottledSec, q); h != nil {
			o.held = c.ofSeries(h)
		}
		out = append(out, o)
	}
	return out
}

// throttledEpisode returns a quota's share of periods throttled and the
// first whole seconds in which it held genThrottled, sustained.
func (c *context) throttledEpisode(q ownQuota) (src string, share []series.Point, from, to int, ok bool) {
	if q.periods == "" || q.throttled == "" {
		return "", nil, 0, 0, false
	}
	src, all := c.ratio(q.throttled, q.periods)
	for _, p := range all {
		if p.Sec < c.whole {
			share = append(share, p)
		}
	}
	held := func(i int) bool { return share[i].Value >= genThrottled }
	run, found := firstRun(len(share), genSeconds, held)
	if !found {
		return "", nil, 0, 0, false
	}
	return src, share, share[run.first].Sec, share[lastHolding(share, run.first, held)].Sec, true
}

// generatorThrottled checks whether loadlens's own container was throttled
// at its CPU quota, sustained: the kernel's count, which its CPU share
// (averaged over a second) understates when bursts spend each period's
// quota early.
func (c *context) generatorThrottled(b *builder) ([]any, int, int, bool) {
	var q ownQuota
	var src string
	var share []series.Point
	from, to, found := 0, 0, false
	for _, o := range c.generatorQuotas() { // the earliest episode: an agent's, or loadlens's own
		if s, sh, a, z, ok := c.throttledEpisode(o); ok && (!found || a < from) {
			q, src, share, from, to, found = o, s, sh, a, z, true
		}
	}
	if !found {
		return nil, 0, 0, false
	}
	whose := []any{"loadlens's own container"}
	if q.agent != "" {
		whose = []any{name(q.agent), "'s own container"}
	}
	peak := b.add(c.fig(src, StatMax, from, to, UnitFraction, "the highest share of loadlens's own CPU periods throttled"))
	peakSec := from
	for _, p := range share {
		if p.Sec >= from && p.Sec <= to && p.Value == b.fig(peak).Value {
			peakSec = p.Sec
			break
		}
	}
	quota := b.add(c.fig(q.cores, StatValue, peakSec, peakSec, UnitCores, "loadlens's own cgroup's CPU quota"))
	first := b.add(c.fig(src, StatValue, from, from, UnitFraction, "share of loadlens's CPU periods throttled in the first throttled second"))
	b.evidence(first, append(slices.Clone(whose), " was throttled in ", first, " of its CPU periods at ", b.second(from, StatSecond, "the first throttled second"),
		": its cgroup's quota (cpu.max, or cpu.cfs_quota_us over cpu.cfs_period_us) ran out, and the kernel stopped its threads for the rest of each such period")...)
	thr := b.add(c.fig(q.throttled, StatValue, peakSec, peakSec, UnitNumber, "loadlens's CPU periods throttled per second at the most throttled second"))
	all2 := b.add(c.fig(q.periods, StatValue, peakSec, peakSec, UnitNumber, "loadlens's CPU periods per second at the most throttled second"))
	b.evidence(peak, "highest: ", thr, " of ", all2, " periods a second throttled (", peak, ") at ", b.second(peakSec, StatSecond, "the most throttled second"),
		", under a quota of ", quota, ": answers that arrived meanwhile were timed when it resumed")
	if q.held != "" && c.has(q.held, peakSec) {
		h := b.add(c.fig(q.held, StatValue, peakSec, peakSec, UnitCores, "time loadlens's runnable threads were held back by its quota, per second"))
		b.evidence(h, "its runnable threads were held back ", h, "' worth of that second (cpu.stat throttled time)")
	}
	b.f.Remedies = slices.Insert(b.f.Remedies, min(1, len(b.f.Remedies)), quotaRemedy) // after "do not use these figures"
	return append(whose, " was throttled in ", peak, " of periods at its quota of ", quota), from, to, true
}

// hostNoun names where loadlens's reading of its host's CPU (/proc/stat)
// comes from: inside a container with a CPU quota that file is the node's,
// every pod's CPU counted, not the share loadlens's container may use.
// An agent's quota says nothing of the coordinator's host.
func (c *context) hostNoun() string {
	for _, q := range c.generatorQuotas() {
		if q.agent == "" {
			return "node"
		}
	}
	return "host"
}

// nodeEvidence says, beside the host's busy share, that a quota held
// loadlens: the busy CPUs are the node's, its own share is the quota.
func (c *context) nodeEvidence(b *builder, from, to int) {
	i := slices.IndexFunc(c.generatorQuotas(), func(q ownQuota) bool { return q.agent == "" })
	if i < 0 {
		return
	}
	q := c.generatorQuotas()[i]
	quota := b.add(c.fig(q.cores, StatMedian, from, to, UnitCores, "loadlens's own cgroup's CPU quota (median)"))
	b.evidence(quota, "these are the node's CPUs (/proc/stat in a container reads the node's), other pods' included: loadlens's own container may use ", quota, " (its cgroup's quota)")
}

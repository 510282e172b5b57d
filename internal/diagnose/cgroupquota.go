package diagnose

import "math"

// quotaOf is a loopback target's cgroup quota as loadlens read it: the
// sources of the quota in cores and, when known, of the cores the cgroup
// used, the time its threads were held back, and the threads the process
// may run (GOMAXPROCS, availableProcessors).
type quotaOf struct {
	cores, used, held, threads string
}

// cgroupThrottling finds loopback targets whose cgroup's CPU quota
// throttled them, from the counters loadlens read of it (CgroupPeriods):
// by the rule cAdvisor's container_cpu_cfs_* get, with the quota in cores
// in the title. A process under half a core whose GOMAXPROCS (or thread
// pool) follows the host's two reads 0.5 cores used of "2 available" in
// its own metrics, and looks idle there.
func (c *context) cgroupThrottling() []Finding {
	var fs []Finding
	for _, periods := range c.set.Find(CgroupPeriods) {
		throttled := sibling(c.set, CgroupThrottled, periods)
		quota := sibling(c.set, CgroupQuota, periods)
		if throttled == nil || quota == nil {
			continue
		}
		q := &quotaOf{cores: c.ofSeries(quota)}
		if u := sibling(c.set, CgroupUsage, periods); u != nil {
			q.used = c.ofSeries(u)
		} else if own := c.ownCores(procOf(periods)); own != "" {
			q.used = own
		}
		if h := sibling(c.set, CgroupThrottledSec, periods); h != nil {
			q.held = c.ofSeries(h)
		}
		q.threads = c.threadLimit(periods)
		src, pts := c.ratio(c.ofSeries(throttled), c.ofSeries(periods))
		if f, ok := c.throttled(src, pts, throttleSubject{name: roleName(periods), label: CgroupThrottled + ", " + describe(periods),
			throttled: c.ofSeries(throttled), periods: c.ofSeries(periods), quota: q}); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// ownCores returns the source of the cores a process used by its own
// metrics (processCores), "" when it exposes none.
func (c *context) ownCores(proc string) string {
	for _, p := range c.processCores() {
		if proc != "" && procOf(p.s) == proc {
			return p.cores
		}
	}
	return ""
}

// quotaEvidence states what the quota allowed against what the target
// used over the throttled scrapes, how long its threads were held back at
// the scrape of the most throttling, and the threads it may run when they
// exceed the quota.
func (c *context) quotaEvidence(b *builder, q quotaOf, from, to, peakSec int) {
	quota := b.add(c.fig(q.cores, StatValue, latestSec(c.values(q.cores), peakSec), latestSec(c.values(q.cores), peakSec), UnitCores,
		"the cgroup's CPU quota at the scrape of the most throttling"))
	var used Figure
	if q.used != "" {
		used = c.fig(q.used, StatMedian, from, to, UnitCores, "cores used over the throttled scrapes (median)")
	}
	if q.used != "" && !math.IsNaN(used.Value) {
		u := b.add(used)
		b.evidence(u, "it used ", u, " (median) of the ", quota, " its cgroup's quota allows (cpu.max, or cpu.cfs_quota_us over cpu.cfs_period_us): the kernel stops it for the rest of each period once the quota is spent")
	} else {
		b.evidence(quota, "its cgroup's quota: ", quota, " (cpu.max, or cpu.cfs_quota_us over cpu.cfs_period_us), enforced every period")
	}
	if q.held != "" && c.has(q.held, peakSec) {
		h := b.add(c.fig(q.held, StatValue, peakSec, peakSec, UnitCores, "time its runnable threads were held back by the quota, per second"))
		b.evidence(h, "its runnable threads were held back ", h, "' worth of each second by the quota (cpu.stat throttled time)")
	}
	if q.threads == "" {
		return
	}
	n := b.add(c.fig(q.threads, StatMedian, from, to, UnitNumber, "the threads the process may run at once (GOMAXPROCS, availableProcessors)"))
	if v := b.fig(n).Value; !math.IsNaN(v) && v > b.fig(quota).Value {
		b.evidence(n, "it may run ", n, " threads at once, more than its quota allows: its own metrics read its CPU against those, not against the quota")
	}
}

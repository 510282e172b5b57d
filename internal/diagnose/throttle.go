package diagnose

import (
	"slices"

	"github.com/loadlens/loadlens/internal/series"
)

// cpuThrottled is the share of CFS periods throttled, sustained, from
// which a container is held back by its CPU limit whatever its average
// use: kubernetes-mixin's CPUThrottlingHigh alert fires at the same 25 %.
// Below it (1 %, 5 %) throttling costs a few milliseconds at the tail.
const cpuThrottled = 0.25

// cpuThrottling finds containers whose CPU limit throttled them in a
// quarter or more of their scheduler periods, for several scrapes in a
// row. The pods of a workload count together: their throttled periods
// over their periods. A container without pod labels counts alone.
func cpuThrottling(c *context) []Finding {
	var fs []Finding
	for _, g := range c.podGroups("container_cpu_cfs_periods_total") {
		_, thr := c.total("container_cpu_cfs_throttled_periods_total", g.filters()...)
		if len(thr) == 0 {
			continue
		}
		tsrc, _ := c.total("container_cpu_cfs_throttled_periods_total", g.filters()...)
		psrc, _ := c.total("container_cpu_cfs_periods_total", g.filters()...)
		src, pts := c.ratio(tsrc, psrc)
		if f, ok := c.throttled(src, pts, throttleSubject{name: g.workload, label: g.describe(), throttled: tsrc, periods: psrc,
			used: c.groupCPU(g)}); ok {
			fs = append(fs, f)
		}
	}
	for _, periods := range c.set.Find("container_cpu_cfs_periods_total") {
		if periods.Label("pod") != "" && periods.Label("container") != "" {
			continue
		}
		throttled := sibling(c.set, "container_cpu_cfs_throttled_periods_total", periods)
		if throttled == nil {
			continue
		}
		src, pts := c.ratio(c.ofSeries(throttled), c.ofSeries(periods))
		if f, ok := c.throttled(src, pts, throttleSubject{name: roleName(periods) + " container", label: describe(throttled),
			throttled: c.ofSeries(throttled), periods: c.ofSeries(periods)}); ok {
			fs = append(fs, f)
		}
	}
	return append(fs, c.cgroupThrottling()...)
}

// throttleSubject is what a throttling finding is about.
type throttleSubject struct {
	name, label        string
	throttled, periods string    // sources: throttled periods and periods per second
	used               cpuOfPods // the cores used against the limits, when known
	quota              *quotaOf  // a loopback target's cgroup quota as loadlens read it; nil for a scrape's
}

// cpuOfPods is the sources of a group's CPU use and limits.
type cpuOfPods struct{ used, limit string }

// groupCPU returns the sources of a group's CPU use (cAdvisor) and its
// limits (kube-state-metrics), or empty ones when either is missing.
func (c *context) groupCPU(g podGroup) cpuOfPods {
	used, up := c.total(containerCPU, g.filters()...)
	limit, lp := c.total(kubeLimits, g.filters("resource", "cpu")...)
	if len(up) == 0 || len(lp) == 0 {
		return cpuOfPods{}
	}
	return cpuOfPods{used, limit}
}

// throttled returns the finding of a sustained throttling episode.
func (c *context) throttled(src string, pts []series.Point, s throttleSubject) (Finding, bool) {
	from, to, ok := c.throttleSpell(pts)
	if !ok {
		return Finding{}, false
	}
	b := newBuilder(KindCPUThrottled, Critical)
	onset := b.second(from, StatOnset, "the first of the throttled scrapes")
	first := b.add(c.fig(src, StatValue, from, from, UnitFraction, "share of CFS periods throttled at the first throttled scrape"))
	peak := b.add(c.fig(src, StatMax, from, to, UnitFraction, "the highest share of CFS periods throttled"))
	peakSec := from
	for _, p := range pts {
		if p.Sec >= from && p.Sec <= to && p.Value == b.fig(peak).Value {
			peakSec = p.Sec
			break
		}
	}
	at := b.second(peakSec, StatSecond, "the scrape of the most throttling")
	if s.quota != nil {
		q := b.add(c.fig(s.quota.cores, StatMax, from, to, UnitCores, "the cgroup's CPU quota: its quota over its period"))
		b.title(name(s.name), " CPU throttled ", peak, " of periods at its cgroup quota of ", q, " (", name(s.label), ") from ", onset)
	} else {
		b.title(name(s.name), " CPU throttled ", peak, " of periods at its limit (", name(s.label), ") from ", onset)
	}
	b.evidence(first, "first of the throttled scrapes: ", first, " of CFS periods throttled at ", onset)
	thr := b.add(c.fig(s.throttled, StatValue, peakSec, peakSec, UnitNumber, "CFS periods throttled per second at the scrape of the most throttling"))
	all := b.add(c.fig(s.periods, StatValue, peakSec, peakSec, UnitNumber, "CFS periods per second at the scrape of the most throttling"))
	b.evidence(peak, "highest: ", thr, " of ", all, " periods a second throttled (", peak, ") at ", at)
	if s.used.used != "" && c.has(s.used.used, peakSec) {
		u := b.add(c.fig(s.used.used, StatValue, peakSec, peakSec, UnitCores, "cores used at the scrape of the most throttling"))
		ls := latestSec(c.values(s.used.limit), peakSec)
		lim := b.add(c.fig(s.used.limit, StatValue, ls, ls, UnitCores, "the CPU limits (kube-state-metrics) at its last scrape before"))
		b.evidence(u, "it used ", u, " against limits of ", lim, " on average over the scrape: the limit is enforced every tenth of a second, so bursts hit it")
	}
	if s.quota != nil {
		c.quotaEvidence(b, *s.quota, from, to, peakSec)
	}
	c.clientAt(b, peakSec)
	return b.done(from, to), true
}

// throttleSpell returns the first sustained spell of a throttled share
// (pts) at cpuThrottled or more, over whole seconds only: the cut-short
// last second's rates are a sliver's (trial A4's run1 read "throttled 100%
// of periods" from 0.2 s at 0:54; its whole seconds peaked at 70 %).
func (c *context) throttleSpell(pts []series.Point) (from, to int, ok bool) {
	if c.run != nil {
		pts = slices.DeleteFunc(slices.Clone(pts), func(p series.Point) bool { return p.Sec >= c.whole })
	}
	held := func(i int) bool { return pts[i].Value >= cpuThrottled }
	run, ok := sustained(pts, held)
	if !ok {
		return 0, 0, false
	}
	return pts[run.first].Sec, pts[lastHolding(pts, run.first, held)].Sec, true
}

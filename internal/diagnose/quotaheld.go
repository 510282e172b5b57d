package diagnose

import "github.com/loadlens/loadlens/internal/series"

// quotaShare is a loopback target's cgroup as loadlens read it from the
// kernel: the share of its CFS periods throttled, each second.
type quotaShare struct {
	name, proc string
	pts        []series.Point
}

// quotaShares returns every loopback target's throttled share whose
// quota is known, as the cpu-throttled finding reads them.
func (c *context) quotaShares() []quotaShare {
	var out []quotaShare
	for _, periods := range c.set.Find(CgroupPeriods) {
		throttled := sibling(c.set, CgroupThrottled, periods)
		if throttled == nil || sibling(c.set, CgroupQuota, periods) == nil {
			continue
		}
		_, pts := c.ratio(c.ofSeries(throttled), c.ofSeries(periods))
		out = append(out, quotaShare{name: roleName(periods), proc: procOf(periods), pts: pts})
	}
	return out
}

// quotaHeld reports whether the kernel throttled process proc's cgroup in
// more than share of its periods at sec. A throttled period is one whose
// quota it spent, so it used at least that share of its quota, whatever
// its own CPU-time rate read over late scrapes: trial A4's app was
// throttled in 10 of 10 periods a second while three scrapes that took
// 1.6–8.3 s read 0.355 of its 0.5 cores, "below its limit".
func (c *context) quotaHeld(proc string, sec int, share float64) bool {
	for _, q := range c.quotaShares() {
		if proc != "" && q.proc == proc {
			if v, ok := valueAt(q.pts, sec); ok && v > share {
				return true
			}
		}
	}
	return false
}

// quotaQueued returns the name of the target whose cgroup throttling spell
// (the cpu-throttled finding's) covers the seconds an open model's queue
// is read over from the second from: that queue is its quota's, no proof
// that another CPU held the load back. "" when none.
func (c *context) quotaQueued(from, to int) string {
	for _, q := range c.quotaShares() {
		if f, t, ok := c.throttleSpell(q.pts); ok && f <= min(from+2, to) && t >= from {
			return q.name
		}
	}
	return ""
}

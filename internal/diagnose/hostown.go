package diagnose

import "math"

// hostOwnLow reports whether a node_exporter host's full CPU was not its
// target's: every process of the host's role whose own CPU use is known
// used at most 1 − hostOthers of what it may use (median, from to to), so
// other processes filled the host (the target-host-busy finding says by how
// much). It adds the first process's cores and limit, for the title. Trial
// A40's app used 0.17–0.3 of its one core while node_exporter read the
// host 100 % busy, and the host's CPU was called the app's, saturated.
func (c *context) hostOwnLow(b *builder, s cpuSubject, from, to int) (used, limit ref, ok bool) {
	role, _ := c.nodeCount(s.host)
	if s.host == nil || role == "" {
		return -1, -1, false
	}
	subjects := c.cpuSubjects()
	var first *cpuSubject
	for _, p := range c.processCores() {
		if p.s.Label("role") != role {
			continue
		}
		for i := range subjects {
			sub := &subjects[i]
			if sub.proc != procOf(p.s) || sub.proc == "" || sub.host != nil {
				continue
			}
			v := aggregate(c.values(sub.source), StatMedian, from, to)
			if math.IsNaN(v) {
				continue
			}
			if v > 1-hostOthers {
				return -1, -1, false // near its own limit: the host's CPU may be the target's own
			}
			if first == nil {
				first = sub
			}
		}
	}
	if first == nil || first.cores == "" || first.limit == "" {
		return -1, -1, false
	}
	used = b.add(c.fig(first.cores, StatMedian, from, to, UnitCores, "cores the target used (median)"))
	limit = b.add(c.fig(first.limit, StatMedian, from, to, UnitCores, "the cores the process may use"))
	return used, limit, true
}

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
	if first == nil {
		return c.cacheOwnLow(b, s, from, to)
	}
	if first.cores == "" || first.limit == "" {
		return -1, -1, false
	}
	used = b.add(c.fig(first.cores, StatMedian, from, to, UnitCores, "cores the target used (median)"))
	limit = b.add(c.fig(first.limit, StatMedian, from, to, UnitCores, "the cores the process may use"))
	return used, limit, true
}

// cacheOwnLow is hostOwnLow for a host whose role's only CPU figure is a
// Redis's (cacheHosts): Redis at most cacheOwnLow of the one core its
// commands run on (median), its cores and that core added for the title.
// Trial A3's c4-redis host read "cache CPU busy … context" while Redis
// used 0.07 cores and three hogs the rest.
func (c *context) cacheOwnLow(b *builder, s cpuSubject, from, to int) (used, limit ref, ok bool) {
	for _, d := range c.cacheHosts() {
		if !sameLabels(d.host.host, s.host, nil) {
			continue
		}
		f := c.fig(d.cores, StatMedian, from, to, UnitCores, "cores Redis used (median)")
		if math.IsNaN(f.Value) || f.Value > cacheOwnLow {
			return -1, -1, false // near its one core: the host's CPU may be Redis's own (cache-cpu)
		}
		used = b.add(f)
		limit = b.add(Figure{Value: 1, Unit: UnitCores, What: "the one core Redis's main thread runs its commands on", Stat: StatLimit, From: from, To: to})
		return used, limit, true
	}
	return -1, -1, false
}

package diagnose

// laterQueue finds, in the open model, the load's effect of a CPU that
// stayed at its limit after the 3 seconds loadEffect compares: the first 3
// seconds inside the CPU's episode, after its onset, in which at least
// satBehind × as many requests were offered as completed (and satBehindGap
// a second more) while the CPU's median over them was still at its
// threshold, and so in the 3 seconds after them: a stall that drains (a JIT
// or GC pause on a JVM near its core) is no CPU's queue. On a
// ramp the CPU fills before the offered rate passes what it serves: trial
// A5's Node service filled its one core at 0:19 with the offered rate at
// 190/s, queued from 0:24 (240 served of 400 offered, latency 240 ms →
// 3.47 s) with the core at 0.98–0.99 to the end, and read INFO "the
// client's latency did not rise with it". A queue a full pool explains
// (poolQueued) is left to the pool, and a host's CPU to the 3 seconds: the
// generator and other processes share it (the catalogue's gc case: the
// host full with the JVM's GC beside loadlens, the App's CPU the finding).
// It returns a function that states it.
func (c *context) laterQueue(b *builder, s cpuSubject, from, to int) (bool, func()) {
	if !c.open || c.run == nil || s.host != nil {
		return false, nil
	}
	for w := from + 1; w+5 <= to; w++ {
		if !c.queuedAtLimit(s, w) || !c.queuedAtLimit(s, w+3) {
			continue
		}
		o := c.fig(c.client(SrcOffered), StatSum, w, w+2, UnitCount, "{requests} offered over 3 seconds with the CPU at its limit")
		d := c.fig(c.client(SrcRequests), StatSum, w, w+2, UnitCount, "{requests} completed over the same 3 seconds")
		if ok, _ := c.poolQueued(b, w, to); ok {
			return false, nil
		}
		return true, func() {
			or, dr := b.add(o), b.add(d)
			b.evidence(dr, "the client from ", b.second(w, StatSecond, "the first of the 3 seconds the load queued"), " to ",
				b.second(w+2, StatSecond, "the last of the 3 seconds the load queued"), ": ", dr, " "+c.counts().Many+" completed of ", or,
				" offered: the load queued while this CPU stayed at its limit")
		}
	}
	return false, nil
}

// queuedAtLimit reports whether, over the 3 seconds from w, the CPU's
// median stayed at its threshold while satBehind × as many requests were
// offered as completed, and satBehindGap a second more.
func (c *context) queuedAtLimit(s cpuSubject, w int) bool {
	if v := aggregate(s.points, StatMedian, w, w+2); !(v >= s.thresh) {
		return false
	}
	o := aggregate(c.values(c.client(SrcOffered)), StatSum, w, w+2)
	d := aggregate(c.values(c.client(SrcRequests)), StatSum, w, w+2)
	return o >= satBehind*d && o-d >= 3*satBehindGap
}

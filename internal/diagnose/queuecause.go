package diagnose

import (
	"math"
	"slices"
)

// queueFromPool reads the CPU findings again once the pool and thread-pool
// findings are known: in the open model a CPU full from the run's start is
// promoted to a cause by the queue the load built (queueEffect), but when a
// full connection or thread pool explains that queue and the target's own
// CPU was low, the CPU is context. Trial A39's item-cache run had the host
// 100 % busy with other jobs, 10 of 10 connections in use and 192 requests
// waiting for one, while the app used 11.5 % of its core.
func (c *context) queueFromPool(fs []Finding) []Finding {
	var cause *Finding
	for i := range fs {
		if (fs[i].Kind == KindPoolExhaustion || fs[i].Kind == KindThreadPoolFull) && fs[i].Severity >= Warning {
			cause = &fs[i]
			break
		}
	}
	cpu := func(f Finding) bool { return f.Kind == KindCPUSaturation || f.Kind == KindTargetHostBusy }
	if cause == nil || !c.open || !slices.ContainsFunc(fs, cpu) {
		return fs
	}
	keep := *cause
	c.queueCause = &keep
	defer func() { c.queueCause = nil }()
	out := slices.DeleteFunc(slices.Clone(fs), cpu)
	out = append(out, c.inUnit(cpuSaturation(c))...)
	return append(out, c.inUnit(targetHostBusy(c))...)
}

// poolQueued reports whether the queue from the second from is the
// queueCause finding's, and returns a function that states it: the pool
// was full at the onset, and every process of the target whose CPU was
// scraped used less than threadCPULow of what it may use meanwhile (a pool
// full of requests that compute waits on the CPU after all).
func (c *context) poolQueued(b *builder, from, to int) (bool, func()) {
	p := c.queueCause
	if p == nil || p.From > min(from+2, to) || p.To < from {
		return false, nil
	}
	var low []Figure
	var names []string
	var first cpuSubject // the subject of low[0]: in cores when they are known
	for _, s := range c.cpuSubjects() {
		if s.proc == "" || slices.Contains(names, s.proc) {
			continue
		}
		f := c.fig(s.source, StatMedian, from, to, UnitFraction, "the target's own CPU use, "+s.what+" (median)")
		if math.IsNaN(f.Value) {
			continue
		}
		if f.Value >= threadCPULow {
			return false, nil
		}
		if len(low) == 0 {
			first = s
		}
		names = append(names, s.proc)
		low = append(low, f)
	}
	if len(low) == 0 {
		return false, nil // the target's own CPU unknown: the CPU may be its bottleneck
	}
	return true, func() {
		u := b.add(low[0])
		used := []any{u, " of its CPU"}
		if first.cores != "" && first.limit != "" { // beside a host's share, a share of its own limit reads as another use
			u = b.add(c.fig(first.cores, StatMedian, from, to, UnitCores, "cores the target used (median)"))
			l := b.add(c.fig(first.limit, StatMedian, from, to, UnitCores, "the cores the process may use"))
			used = []any{u, " of the ", l, " it may use"}
		}
		b.evidence(u, append(append([]any{"the load queued at a full pool (the " + p.Kind + " finding), not for this CPU: the target used "}, used...),
			" meanwhile (median): this CPU's use is context, not the bottleneck")...)
	}
}

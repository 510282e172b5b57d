package diagnose

// hostStealNoted is the share of the host's CPUs, taken by the hypervisor
// over the run (median second), from which "no bottleneck found" says so:
// on this project's 2-core VM, 4–8 % of the host stolen moved a 5 ms
// loopback server's p95 by 15–60 % while loadlens itself kept its schedule.
const hostStealNoted = 0.02

// stealNote returns the words of the healthy verdict on the CPU time the
// hypervisor took from the generator's host, or nil below hostStealNoted:
// not a bottleneck of the target's, but its pauses are in the latencies
// of a target on the same host, and in a comparison with a quieter run.
func (c *context) stealNote(b *builder) []any {
	_, cpus, ok := c.hostSources()
	if !ok || len(c.all) == 0 {
		return nil
	}
	first, last := c.all[0].sec, c.all[len(c.all)-1].sec
	stolen, ok := c.stealFig(first, last)
	n := c.fig(cpus, StatMedian, first, last, UnitCores, "the host's CPUs")
	if !ok || n.Value <= 0 || stolen.Value/n.Value < hostStealNoted {
		return nil
	}
	s, h := b.add(stolen), b.add(n)
	share := b.derive(StatRatio, UnitFraction, "share of the host's CPUs taken by the hypervisor", s, h)
	return []any{"the hypervisor took ", share, " of the generator host's ", h,
		" (CPU steal): a target on the same host lost that time too; compare its latencies only with runs that lost as much"}
}

// stealFig is the median cores' worth of time the hypervisor took from the
// generator's host between two seconds, when the run recorded it.
func (c *context) stealFig(from, to int) (Figure, bool) {
	st := c.set.Find(HostSteal)
	if len(st) == 0 {
		return Figure{}, false
	}
	return c.fig(c.ofSeries(st[0]), StatMedian, from, to, UnitCores, "cores' worth of time the hypervisor took (steal, median)"), true
}

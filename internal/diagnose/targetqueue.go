package diagnose

import "math"

// genTargetQueue: a target whose p95 is at least this many times the
// generator's highest own delay (its scheduler's lag p99, its goroutines'
// scheduling latency p99) made its latencies itself, within a fifth: the
// inverse of genLagShare, under which a second does not count as late.
const genTargetQueue = 1 / genLagShare

// generatorDelay returns the source of the generator's own delay on each
// iteration or response between two seconds, and its highest value there:
// the larger of the scheduler's lag p99 (open model) and the goroutines'
// scheduling latency p99; "" when neither was recorded.
func (c *context) generatorDelay(from, to int) (string, float64) {
	srcs := []string{c.client(SrcLag)}
	if s := c.stallSource(); s != "" {
		srcs = append(srcs, s)
	}
	best, peak := "", 0.0
	for _, s := range srcs {
		if v := aggregate(c.values(s), StatMax, from, to); !math.IsNaN(v) && (best == "" || v > peak) {
			best, peak = s, v
		}
	}
	return best, peak
}

// targetQueued returns the words that say the target queued requests of
// its own from the generator's first late second (from) on: its p95 was
// genTargetQueue × the generator's highest delay from then to the end or
// more, genSeconds whole seconds in a row, and adds their evidence; nil
// when it did not. On a host busy with other processes, a pool of 2
// connections at twice its rate took the p95 to 5.1 s while the lag p99
// stayed under 240 ms: the pool, not the generator, was the queue. A
// generator short of CPU before a fast target never passes: its
// latencies, timed from the intended starts, carry its lag.
func (c *context) targetQueued(b *builder, from int) []any {
	last := c.whole - 1
	src, delay := c.generatorDelay(from, last)
	if src == "" || !(delay > 0) {
		return nil
	}
	queued := func(i int) bool {
		s := &c.secs[i]
		return s.sec >= from && s.sec <= last && s.p95 >= genTargetQueue*delay
	}
	run, ok := firstRun(len(c.secs), genSeconds, queued)
	if !ok {
		return nil
	}
	qf, ql := c.secs[run.first].sec, c.secs[run.last].sec
	what, words := "the generator's highest scheduler lag p99 from its first late second to the end", []any{"lag ", name("p99")}
	if src != c.client(SrcLag) {
		what, words = "the generator's highest scheduling latency p99 from its first late second to the end", []any{"scheduling latency ", name("p99")}
	}
	d := b.add(c.fig(src, StatMax, from, last, UnitDuration, what))
	p := b.add(c.fig(c.client(SrcP95), StatMax, qf, ql, UnitDuration, "the target's highest p95 while it queued"))
	r := b.derive(StatRatio, UnitRatio, "the target's highest p95 over the generator's highest delay", p, d)
	ev := []any{"from ", b.second(qf, StatSecond, "the first second the target queued"), " to ", b.second(ql, StatSecond, "the last second the target queued"),
		" the target's ", name("p95"), " stayed far above all the generator lost: up to ", p, ", ", r, " its highest "}
	b.evidence(r, append(append(ev, words...), " (", d, "): the requests queued at the target, not at the generator")...)
	return []any{"the target's ", name("p95"), " rose to ", p, ", ", r, " the generator's own delay"}
}

// stallSource returns the source of the generator's scheduling latency
// p99 (GeneratorStall, one series a run), or "" when it was not recorded.
func (c *context) stallSource() string {
	if ss := c.set.Find(GeneratorStall); len(ss) > 0 {
		return c.ofSeries(ss[0])
	}
	return ""
}

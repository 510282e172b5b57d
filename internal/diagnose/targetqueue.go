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
	b.evidence(r, append(append(ev, words...), " (", d, "): the "+c.counts().Many+" queued at the target, not at the generator")...)
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

// targetStepped returns the words that say the target's median latency
// stepped up, genTargetQueue × or more from the seconds before one second
// to the median of it and every whole second after (and genSeconds in a
// row from it), by more than the generator's own delay there: a median
// rise needs half of the requests delayed that much, and the generator's
// delay p99 bounds what it added to 99 % of them. nil when it did not.
// Trial A's flushed cache took the median from 0.59 ms to 26.7 ms at 0:20
// on a host whose lag p99 reached 74 ms at 0:17 without moving it, and
// stayed near 13 ms after.
func (c *context) targetStepped(b *builder) []any {
	p50 := c.values(c.client(SrcP50))
	if len(c.secs) < 2*genSeconds {
		return nil
	}
	first, last := c.secs[0].sec, c.secs[len(c.secs)-1].sec
	for k := genSeconds; k+genSeconds <= len(c.secs); k++ {
		step := c.secs[k].sec
		base := aggregate(p50, StatMedian, first, step-1)
		after := aggregate(p50, StatMedian, step, last)
		if !(base > 0) || after < genTargetQueue*base || c.secs[k-1].p50 >= genTargetQueue*base {
			continue
		}
		rose := true
		for i := k; i < k+genSeconds; i++ {
			rose = rose && c.secs[i].p50 >= genTargetQueue*base
		}
		if !rose {
			continue
		}
		src, _ := c.generatorDelay(step, last)
		delay := aggregate(c.values(src), StatMedian, step, last)
		if src == "" || math.IsNaN(delay) || after-base <= delay {
			return nil // the first step is the one judged: the generator's own delay may explain it
		}
		return c.steppedWords(b, src, first, step, last)
	}
	return nil
}

// steppedWords adds the evidence of a step of the target's median latency
// at step and returns the words of the generator finding's title.
func (c *context) steppedWords(b *builder, src string, first, step, last int) []any {
	p50 := c.client(SrcP50)
	before := b.add(c.fig(p50, StatMedian, first, step-1, UnitDuration, "the target's median latency before its step (median of the seconds)"))
	after := b.add(c.fig(p50, StatMedian, step, last, UnitDuration, "the target's median latency from its step to the end (median of the seconds)"))
	r := b.derive(StatRatio, UnitRatio, "the target's median latency after its step over before", after, before)
	words := []any{"lag ", name("p99")}
	if src != c.client(SrcLag) {
		words = []any{"scheduling latency ", name("p99")}
	}
	d := b.add(c.fig(src, StatMedian, step, last, UnitDuration, "the generator's own delay from the target's step to the end (median of the seconds)"))
	at := b.second(step, StatSecond, "the second the target's median latency stepped up")
	ev := []any{"the target's median latency stepped up at ", at, ": ", before, " before, ", after, " from then to the end (", r,
		"), while the generator's "}
	b.evidence(r, append(append(ev, words...), " was ", d, " (median): a delay of that size cannot raise the median that much")...)
	return []any{"the target's median latency rose ", r, " at ", at, ", more than the generator's own delay explains"}
}

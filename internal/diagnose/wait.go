package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// waitSources returns the sources of loadlens's threads' wait for a CPU and
// of its CPU use, both in cores, recorded side by side.
func (c *context) waitSources() (wait, used string, ok bool) {
	for _, w := range c.set.Find(GeneratorCPUWait) {
		if u := sibling(c.set, GeneratorCPU, w); u != nil {
			return c.ofSeries(w), c.ofSeries(u), true
		}
	}
	return "", "", false
}

// waitEpisode returns the first whole seconds in which loadlens's threads
// waited, runnable, for a CPU about as long as they ran, sustained: the
// generator got little more than half the CPU it was ready to use, in
// either load model, and every response it read waited with it. It is the
// signal of a host that starves loadlens without making it late on its
// schedule (the closed model has none; the open model's lag stays under
// the target's p95 when the target is fast).
func (c *context) waitEpisode() (int, int, bool) {
	wait, used, ok := c.waitSources()
	if !ok {
		return 0, 0, false
	}
	var pts []series.Point // the wait at whole seconds with both figures
	u := c.values(used)
	for _, p := range c.values(wait) {
		if p.Sec < c.whole {
			pts = append(pts, p)
		}
	}
	starved := func(i int) bool {
		run, ok := valueAt(u, pts[i].Sec)
		return ok && pts[i].Value >= genWaitMin && pts[i].Value >= genWaitShare*run
	}
	run, found := firstRun(len(pts), genSeconds, starved)
	if !found {
		return 0, 0, false
	}
	from, to := pts[run.first].Sec, pts[lastHolding(pts, run.first, starved)].Sec
	if c.waitImmaterial(from, to) {
		return 0, 0, false
	}
	return from, to, true
}

// waitDelay returns the source of the delay a wait for a CPU put on each
// iteration or response: the scheduler's lag p99 (open model, where
// recorded) or the goroutines' scheduling latency p99.
func (c *context) waitDelay(from, to int) (string, bool) {
	if src := c.client(SrcLag); c.open && aggregate(c.values(src), StatMax, from, to) > 0 {
		return src, true
	}
	for _, s := range c.set.Find(GeneratorStall) {
		return c.ofSeries(s), true
	}
	return "", false
}

// waitImmaterial reports whether loadlens's wait for a CPU between two
// seconds delayed what it measured by less than genWaitDelayShare of the
// mean response time: its threads queued for a CPU, but each response was
// read at most that much late, so the figures are the target's within a
// few percent (trial 2's 1,000 VUs: 14.7 ms of 352 ms). Without a delay
// series the wait cannot be weighed and counts.
func (c *context) waitImmaterial(from, to int) bool {
	src, ok := c.waitDelay(from, to)
	if !ok {
		return false
	}
	delay := aggregate(c.values(src), StatMax, from, to)
	mean := aggregate(c.values(c.client(SrcMean)), StatMedian, from, to)
	if math.IsNaN(delay) || math.IsNaN(mean) || mean <= 0 {
		return false
	}
	return delay < genWaitDelayShare*mean
}

// waitLate is the late signal of a wait episode: how long loadlens's
// threads waited for a CPU beside how long they ran, with the scheduler's
// lag (open model) or the goroutines' scheduling latency where recorded.
func (c *context) waitLate(from, to int) lateSignal {
	return func(b *builder, _, _ int) ([]any, func()) {
		wait, used, _ := c.waitSources()
		w := b.add(c.fig(wait, StatMedian, from, to, UnitCores, "cores' worth of time loadlens's threads waited for a CPU (median)"))
		u := b.add(c.fig(used, StatMedian, from, to, UnitCores, "cores loadlens's threads ran (median)"))
		r := b.derive(StatRatio, UnitRatio, "loadlens's wait for a CPU over its run time", w, u)
		title := []any{"; its threads waited for a CPU ", r, " as long as they ran"}
		var lag ref = -1
		var lagWords []any
		if src, ok := c.waitDelay(from, to); ok && src == c.client(SrcLag) {
			lag = b.add(c.fig(src, StatMax, from, to, UnitDuration, "the highest scheduler lag p99"))
			lagWords = []any{"iterations started late meanwhile, lag ", name("p99"), " up to ", lag}
		} else if ok {
			lag = b.add(c.fig(src, StatMax, from, to, UnitDuration, "the highest scheduling latency p99 of the generator"))
			lagWords = []any{"its goroutines' scheduling latency meanwhile: ", name("p99"), " up to ", lag}
		}
		return title, func() {
			b.evidence(r, "loadlens's threads were runnable but not running for ", w, " while they ran ", u, " (medians): ", r,
				"; every response they read waited with them")
			if lag >= 0 {
				b.evidence(lag, lagWords...)
			}
		}
	}
}

// generatorWait states a wait episode on a host that was not busy (or not
// recorded): loadlens got less CPU than it was ready to use.
func (c *context) generatorWait(b *builder, from, to int) []any {
	words, evidence := c.waitLate(from, to)(b, from, to)
	evidence()
	return append([]any{"it got less CPU than it asked for"}, words...)
}

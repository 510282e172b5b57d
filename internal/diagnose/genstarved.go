package diagnose

import "math"

// A generator starved of CPU reads the target's responses late: a VU whose
// response has arrived waits for a CPU to read it, and its latency holds
// the wait. Its lag and its goroutines' scheduling latency understate it
// (trial A38's 5c, three CPU hogs on loadlens's core: lag p99 up to 3.7 s,
// scheduling latency mostly under 0.6 s, while its median latency was
// 2.76 s and a probe from the target's own core saw 4.5 ms); its threads'
// run-queue wait (GeneratorCPUWait) does not: 0.9 cores' worth against
// 0.02 cores run, 47×. With the target's own CPU low meanwhile, the
// latencies are loadlens's, not the target's: the generator's finding
// stands and no saturation is named on them.
const (
	// genStarvedWait: loadlens's threads waited, runnable, at least this
	// many times as long as they ran (medians of the seconds). Busy shared
	// hosts whose target was slow of its own read 4–6× (trial A's cache
	// flush, a global mutex); the starved generators 15–50×.
	genStarvedWait = 10
	// genStarvedShare: and the wait was at least this share of the cores
	// loadlens may use (GOMAXPROCS): most of its threads waited, most of
	// the time. A saturated target on a busy host (Tomcat's 4 threads, a
	// DB pool beside CPU hogs) had loadlens wait 10–35% of its cores; the
	// starved generator of 5c 90%.
	genStarvedShare = 0.75
	// genTargetIdle: every target's CPU known stayed at or below this,
	// in cores for a process and as a share of what it may use for the
	// rest (median of the seconds): the target had CPU to spare.
	genTargetIdle = 0.5
)

// starvation is the evidence of a generator starved of CPU: the sources of
// its threads' wait and run, and of the busiest target process's cores.
type starvation struct {
	wait, run, target string
	from, to          int
	tFrom, tTo        int // the seconds the target's figure is the median of
}

// generatorStarved reports whether loadlens's threads waited for a CPU
// genStarvedWait × as long as they ran from the run's first second to
// second to, while every target's CPU known stayed low; false when no
// target's CPU is known. From the first second: a generator starved before
// the load could pile up is the cause of the latencies; one that ran short
// only once a slow target held a thousand VUs (trial A38's Tomcat of 4
// threads) is their effect, and the target's findings stand.
func (c *context) generatorStarved(to int) (starvation, bool) {
	from := 0
	if len(c.secs) > 0 {
		from = c.secs[0].sec
	}
	waits, runs := c.set.Find(GeneratorCPUWait), c.set.Find(GeneratorCPU)
	if len(waits) == 0 || len(runs) == 0 {
		return starvation{}, false
	}
	st := starvation{wait: c.ofSeries(waits[0]), run: c.ofSeries(runs[0]), from: from, to: to}
	w := aggregate(c.values(st.wait), StatMedian, from, to)
	r := aggregate(c.values(st.run), StatMedian, from, to)
	if math.IsNaN(w) || math.IsNaN(r) || !(w > 0) || w < genStarvedWait*r {
		return starvation{}, false
	}
	if _, capSrc, _, ok := c.generatorSources(); !ok || !(w >= genStarvedShare*aggregate(c.values(capSrc), StatMedian, from, to)) {
		return starvation{}, false
	}
	busiest := -1.0
	for _, p := range c.processCores() {
		f, t := from, to
		v := aggregate(c.values(p.cores), StatMedian, f, t)
		if math.IsNaN(v) { // a starved generator scrapes late too: a few seconds may hold no reading
			f, t = 0, c.whole-1
			v = aggregate(c.values(p.cores), StatMedian, f, t)
		}
		if math.IsNaN(v) {
			continue
		}
		if v > genTargetIdle {
			return starvation{}, false
		}
		if v > busiest {
			busiest, st.target, st.tFrom, st.tTo = v, p.cores, f, t
		}
	}
	for _, s := range c.cpuSubjects() {
		if v := aggregate(s.points, StatMedian, from, to); v > genTargetIdle {
			return starvation{}, false // a host or container of the target's busy: its CPU may be the cause
		}
	}
	return st, st.target != ""
}

// starvedWords adds the evidence of a starved generator and returns the
// words of the title.
func (c *context) starvedWords(b *builder, st starvation) []any {
	w := b.add(c.fig(st.wait, StatMedian, st.from, st.to, UnitCores, "loadlens's threads' wait, runnable, for a CPU (median)"))
	r := b.add(c.fig(st.run, StatMedian, st.from, st.to, UnitCores, "cores loadlens ran on (median)"))
	ratio := b.derive(StatRatio, UnitRatio, "loadlens's threads' wait for a CPU over their run", w, r)
	t := b.add(c.fig(st.target, StatMedian, st.tFrom, st.tTo, UnitCores, "the busiest target process's CPU (median)"))
	b.evidence(ratio, "loadlens's threads waited for a CPU ", w, " while they ran ", r, " (", ratio,
		"), and the target used ", t, ": a response that had arrived waited for loadlens to read it, so the latencies hold loadlens's wait, which its lag understates")
	return []any{"; its threads waited for a CPU ", ratio, " as long as they ran while the target used ", t}
}

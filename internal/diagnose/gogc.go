package diagnose

import (
	"github.com/loadlens/loadlens/internal/series"
)

// Go's collector runs beside the program: its cost is CPU (a quarter of
// GOMAXPROCS while it marks, plus the assists of allocating goroutines),
// not the pauses gcPressure reads, which stay near 0 (trial A3's c2-gc-*:
// 13–22 collections a second, GOGC=10, pauses 0.0 % of wall time). The GC
// guide (go.dev/doc/gc-guide): between cycles the heap grows by GOGC % of
// the live heap and each cycle marks the live heap, so the mark work per
// allocated byte scales as 100/GOGC; near GOMEMLIMIT the limit, not GOGC,
// sets the heap goal and the runtime collects as often as it must.
const (
	goGCLow      = 25  // GOGC ≤ 25: at least 4× the default 100's mark work per allocated byte
	goGCDefault  = 100 // the runtime's GOGC when none is set: the scale of the work per byte
	goNearLimit  = 0.9 // the runtime holds ≥ 90 % of GOMEMLIMIT: the limit sets when it collects
	goGCFrequent = 1.0 // ≥ 1 collection a second (median): allocation drives it, not the 2-minute forced GC
)

// The go preset's series of a Go service's collector (client_golang 1.20+).
const (
	goGCCount    = "go_gc_duration_seconds_count"
	goGCSum      = "go_gc_duration_seconds_sum"
	goGOGC       = "go_gc_gogc_percent"
	goMemLimit   = "go_gc_gomemlimit_bytes"
	goSys        = "go_memstats_sys_bytes"
	goHeapFreed  = "go_memstats_heap_released_bytes"
	goProcessCPU = "process_cpu_seconds_total"
)

// goGCPressure names GC pressure in a Go service: its CPU at its limit
// while it collected at least once a second with a low effective GOGC
// (the one set, or the memory limit near which the runtime collects).
// A default GOGC at any rate of collections is no pressure: a small heap
// is collected many times a second at little cost.
func goGCPressure(c *context) []Finding {
	var fs []Finding
	for _, gc := range c.set.Find(goGCCount) {
		if f, ok := c.goGC(gc); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// goGC judges one Go process over each span its CPU was at its limit.
func (c *context) goGC(gc *series.Series) (Finding, bool) {
	cpu := sibling(c.set, goProcessCPU, gc)
	if cpu == nil {
		return Finding{}, false
	}
	limit := c.cpuLimitSource(cpu)
	if limit == "" {
		return Finding{}, false
	}
	sub, ok := c.limitSubject(cpu, c.ofSeries(cpu), limit)
	if !ok {
		return Finding{}, false
	}
	rate := c.ofSeries(gc)
	busy := func(i int) bool { return sub.points[i].Value >= sub.thresh }
	for _, run := range sustainedRuns(sub.points, busy) {
		from, to := sub.points[run.first].Sec, sub.points[lastHolding(sub.points, run.first, busy)].Sec
		if !(aggregate(c.values(rate), StatMedian, from, to) >= goGCFrequent) {
			continue
		}
		b := newBuilder(KindGCPressure, Warning)
		setting, remedies, ok := c.goEffectiveGOGC(b, gc, from, to)
		if !ok {
			continue
		}
		b.f.Remedies = remedies
		c.goGCEvidence(b, gc, sub, setting, from, to)
		return b.done(from, to), true
	}
	return Finding{}, false
}

// goGCEvidence titles the finding and adds the collections, the CPU and
// the pauses beside the effective GOGC's evidence (setting).
func (c *context) goGCEvidence(b *builder, gc *series.Series, sub cpuSubject, setting []any, from, to int) {
	onset := b.second(from, StatOnset, "the first scrape with the CPU at its limit")
	first := b.add(c.fig(sub.source, StatValue, from, from, UnitFraction, "CPU use of the cores it may use at the first scrape at its limit"))
	n := b.add(c.fig(c.ofSeries(gc), StatMedian, from, to, UnitNumber, "collections a second while the CPU was at its limit (median)"))
	use := b.add(c.fig(sub.source, StatMedian, from, to, UnitFraction, "CPU use of the cores it may use (median)"))
	ls := latestSec(c.values(sub.limit), to)
	lim := b.add(c.fig(sub.limit, StatValue, ls, ls, UnitCores, "the cores the process may use"))
	title := append([]any{"GC pressure: ", name(sub.name), "'s Go runtime collected ", n, " times a second "}, setting...)
	b.title(append(title, " while its CPU was at its limit (", use, " of ", lim, ", ", name(sub.label), ") from ", onset)...)
	b.evidence(n, "collections: ", n, " a second (median) from ", onset, " to ", b.second(to, StatSecond, "the last scrape with the CPU at its limit"))
	b.evidence(use, "its CPU: ", first, " of the ", lim, " it may use at ", onset, ", ", use, " (median): the collector's work came out of the program's CPU")
	if sum := sibling(c.set, goGCSum, gc); sum != nil {
		p := b.add(c.fig(c.ofSeries(sum), StatMedian, from, to, UnitFraction, "share of wall time in stop-the-world pauses (median)"))
		b.evidence(p, "stop-the-world pauses: ", p, " of wall time (median): Go marks while the program runs, so its cost is CPU, not pauses")
	}
}

// goEffectiveGOGC returns the words of a low effective GOGC and its
// remedies, with its evidence added to b: GOGC set at most goGCLow, else
// the runtime's memory at goNearLimit of GOMEMLIMIT; ok is false when
// neither held (or the run recorded neither).
func (c *context) goEffectiveGOGC(b *builder, gc *series.Series, from, to int) ([]any, []string, bool) {
	if s := sibling(c.set, goGOGC, gc); s != nil {
		src := c.ofSeries(s)
		if v := aggregate(c.values(src), StatMedian, from, to); v > 0 && v <= goGCLow {
			g := b.add(c.fig(src, StatMedian, from, to, UnitNumber, "GOGC, the heap's growth between collections in % of the live heap"))
			def := b.add(Figure{Value: goGCDefault, Unit: UnitNumber, What: "the default GOGC", Stat: StatLimit, From: from, To: to})
			x := b.derive(StatRatio, UnitRatio, "the mark work per allocated byte against the default GOGC's (100 / GOGC)", def, g)
			b.evidence(g, "GOGC ", g, ": the heap may grow by ", g, "% of the live heap between collections, ", x,
				" the mark work per allocated byte of the default ", def)
			return []any{"at GOGC ", g}, goGOGCRemedies, true
		}
	}
	return c.goNearMemLimit(b, gc, from, to)
}

// goNearMemLimit checks whether the runtime held goNearLimit of its
// GOMEMLIMIT: Sys − HeapReleased, the memory the limit counts.
func (c *context) goNearMemLimit(b *builder, gc *series.Series, from, to int) ([]any, []string, bool) {
	lim, sys, freed := sibling(c.set, goMemLimit, gc), sibling(c.set, goSys, gc), sibling(c.set, goHeapFreed, gc)
	if lim == nil || sys == nil || freed == nil {
		return nil, nil, false
	}
	med := func(s *series.Series) float64 { return aggregate(c.values(c.ofSeries(s)), StatMedian, from, to) }
	if l := med(lim); !(l > 0 && (med(sys)-med(freed))/l >= goNearLimit) {
		return nil, nil, false
	}
	l := b.add(c.fig(c.ofSeries(lim), StatMedian, from, to, UnitNumber, "GOMEMLIMIT in bytes"))
	sy := b.add(c.fig(c.ofSeries(sys), StatMedian, from, to, UnitNumber, "bytes the runtime obtained from the OS (median)"))
	fr := b.add(c.fig(c.ofSeries(freed), StatMedian, from, to, UnitNumber, "heap bytes it released to the OS (median)"))
	held := b.derive(StatDiff, UnitNumber, "bytes the runtime held (Sys − HeapReleased, what GOMEMLIMIT counts)", sy, fr)
	share := b.derive(StatRatio, UnitFraction, "the runtime's memory as a share of GOMEMLIMIT", held, l)
	b.evidence(share, "the runtime held ", held, " bytes of its GOMEMLIMIT of ", l, " (", share,
		", medians): near the limit the runtime collects as often as it must to stay under it, whatever GOGC says")
	return []any{"at ", share, " of its memory limit (GOMEMLIMIT)"}, goMemLimitRemedies, true
}

// goGOGCRemedies and goMemLimitRemedies are a Go service's GC remedies,
// cheapest first, for a low GOGC and a heap held at its memory limit.
var (
	goGOGCRemedies = []string{
		"raise GOGC toward the default 100 (each doubling halves the mark work per allocated byte), with GOMEMLIMIT set to the memory the service may use so the larger heap stays within it",
		"allocate less per {request}: profile allocations under load (go tool pprof -sample_index=alloc_space http://HOST/debug/pprof/heap) and reuse buffers on the hot path (sync.Pool)",
		"give it more CPU (the container limit, GOMAXPROCS): the collector takes a quarter of GOMAXPROCS while it marks, and the goroutines that allocate assist it",
	}
	goMemLimitRemedies = []string{
		"raise GOMEMLIMIT (and the container's memory with it) or keep less live between {requests} (caches, buffers): near the limit the runtime collects as often as it must, up to about half its CPU",
		"allocate less per {request}: profile allocations under load (go tool pprof -sample_index=alloc_space http://HOST/debug/pprof/heap) and reuse buffers on the hot path (sync.Pool)",
		"give it more CPU (the container limit, GOMAXPROCS): the collector takes a quarter of GOMAXPROCS while it marks, and the goroutines that allocate assist it",
	}
)

package diagnose

import "github.com/loadlens/loadlens/internal/stats"

// Drift thresholds. Twenty seconds of steady load is the least over which
// a trend can be told from noise; Kendall's tau ≥ 0.5 is three standard
// deviations of pure noise at that length, and a rise of a quarter of the
// starting latency (and at least driftAbs) is one a user would notice.
const (
	driftMinSeconds = 20
	driftSteady     = 0.9 // load within 10 % of its highest: the hold phase
	// open model: the hold's completed requests at least 97 % of those
	// offered. A target that completes less is a queue growing by the
	// difference (3c of trial A38: 36 of 40 req/s, p95 0.57 → 3.9 s), saturation
	// and not drift; at 97 % the backlog a 30 s hold leaves is under one second of load.
	driftKeepsUp = 0.97
	driftTau     = 0.5  // how consistently latency rose
	driftRise    = 0.25 // the fitted rise over the hold, relative to its start
	driftEnds    = 1.2  // the last quarter's median over the first quarter's
	// A healthy service's per-second p95 wanders in phases of seconds, not
	// at random: on a 2-core host the demo feed's indexed read moved 0.05–2.7 ms
	// either way over 25 s (14 runs, |tau| up to 0.76), while the read that
	// scans its growing table rose 9.9–17 ms (6 runs, tau ≥ 0.77).
	driftAbs = 0.005
)

// latencyDrift finds latency that keeps rising while the load holds steady:
// data that grows, a cache or queue without bounds, a leak.
func latencyDrift(c *context) []Finding {
	if len(c.secs) < driftMinSeconds {
		return nil
	}
	ls := smooth(c.column(func(s *clientSecond) float64 { return s.load }), 1)
	top := ls[argmax(ls)]
	hold, ok := longestRun(len(ls), func(i int) bool { return ls[i] >= driftSteady*top && c.secs[i].x > 0 })
	if !ok || hold.last-hold.first+1 < driftMinSeconds {
		return nil
	}
	var secsOf []clientSecond
	for _, s := range c.secs[hold.first : hold.last+1] {
		if s.m.Latencies > 0 { // a second without requests (or with sessions' ends alone) has no latency
			secsOf = append(secsOf, s)
		}
	}
	t := make([]float64, len(secsOf))
	for i := range secsOf {
		t[i] = float64(secsOf[i].sec)
	}
	if c.open && !c.keptUp(hold) {
		return nil // not keeping up: saturation, not drift
	}
	for _, q := range []struct {
		name string
		src  string
		get  func(*clientSecond) float64
	}{{"p95", SrcP95, func(s *clientSecond) float64 { return s.p95 }}, {"p50", SrcP50, func(s *clientSecond) float64 { return s.p50 }}} {
		ys := make([]float64, len(secsOf))
		for i := range secsOf {
			ys[i] = q.get(&secsOf[i])
		}
		if f, ok := c.drift(q.name, c.client(q.src), t, ys, hold); ok {
			return []Finding{f}
		}
	}
	return nil
}

// drift checks one latency figure over the hold phase.
func (c *context) drift(qname, src string, t, ys []float64, hold span) (Finding, bool) {
	a, slope := theilSen(t, ys)
	start, end := a+slope*t[0], a+slope*t[len(t)-1]
	tau := kendallTau(t, ys)
	quarter := max(len(ys)/4, 1)
	early, late := stats.Median(ys[:quarter]), stats.Median(ys[len(ys)-quarter:])
	rise := end - start
	if tau < driftTau || start <= 0 || rise < driftRise*start || rise < driftAbs || late < driftEnds*early {
		return Finding{}, false
	}
	from, to := int(t[0]), int(t[len(t)-1])
	qEnd := int(t[quarter-1])
	lStart := int(t[len(t)-quarter])
	b := newBuilder(KindLatencyDrift, Warning)
	e := b.add(c.fig(src, StatMedian, from, qEnd, UnitDuration, qname+" of the hold's first quarter (median of the seconds)"))
	l := b.add(c.fig(src, StatMedian, lStart, to, UnitDuration, qname+" of the hold's last quarter (median of the seconds)"))
	sl := b.add(c.fig(src, StatSlope, from, to, UnitPerMinute, "Theil–Sen slope of "+qname+" over the hold"))
	ta := b.add(c.fig(src, StatTau, from, to, UnitNumber, "Kendall's tau of "+qname+" against time over the hold"))
	length := b.add(Figure{Value: float64(to - from + 1), Unit: UnitDuration, What: "the hold's length", Source: "time", Stat: StatSpan, From: from, To: to})
	onset := b.second(from, StatOnset, "the first second of the hold")
	x := b.add(c.fig(c.client(SrcRequests), StatMedian, from, to, UnitReqPerSec, "throughput over the hold (median)"))
	load := []any{x}
	if c.closed {
		n := c.vusFigure(b, from, to, "active VUs over the hold (median)")
		load = []any{n, b.noun(n, " VU", " VUs")}
	}
	title := append([]any{"Latency drifts up at a steady "}, load...)
	b.title(append(title, ": ", name(qname), " ", e, " → ", l, " over ", length, " (", sl, ") from ", onset)...)
	b.evidence(e, name(qname), " median of the first quarter: ", e)
	b.evidence(l, name(qname), " median of the last quarter: ", l)
	b.evidence(sl, "Theil–Sen slope of ", name(qname), ": ", sl, "; Kendall's tau ", ta, " (a tau of one: it rose every second)")
	b.evidence(x, "throughput meanwhile: median ", x)
	return b.done(from, to), true
}

// keptUp reports whether an open model's target completed, over the hold,
// nearly every request offered: otherwise the backlog grows and latency
// with it, which is a queue, not drift.
func (c *context) keptUp(hold span) bool {
	var done, offered float64
	for _, s := range c.secs[hold.first : hold.last+1] {
		done += s.x
		offered += s.load
	}
	return offered > 0 && done >= driftKeepsUp*offered
}

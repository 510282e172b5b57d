package diagnose

import "github.com/loadlens/loadlens/internal/stats"

// Saturation thresholds. A knee needs history on both sides of it; the load
// must rise clearly past it while throughput barely follows and latency
// climbs. One-second spikes are smoothed away first (median of 3).
const (
	satMinSeconds  = 8     // seconds with requests before the rule looks
	satLoadGain    = 1.25  // the load rose at least 25 % past the knee
	satElasticity  = 0.3   // throughput rose less than 30 % as much as the load did
	satPlateau     = 0.95  // the knee: throughput first within 5 % of its plateau
	satBehind      = 1.2   // open model: offered at least 1.2 × throughput...
	satBehindGap   = 5.0   // ... and at least 5 req/s more
	satBehindSecs  = 3     // ... for at least 3 seconds in a row
	satLatencyRise = 0.5   // latency rose at least half as much as the load
	satLatencyAbs  = 0.001 // and by at least 1 ms, below which CI noise lives
	satQueued      = 0.25  // open model: Little's law puts this share of the unserved requests in flight
	// satQueueGap and satQueueRise: a gap under behind's bars counts when
	// it lasted satQueueSecs in a row, added up to satQueueGap requests or
	// more, and the mean latency at least doubled meanwhile: the queue of
	// a target a few percent short, which Little's law then finds in
	// flight. A worker pool of 2 × 50 ms (39.6 req/s) offered 45/s (1.15×,
	// p99 171 ms → 2 s over 17 s) and 41.25/s (p95 51 ms → 898 ms) read
	// "throughput followed the offered load".
	satQueueSecs = 8
	satQueueGap  = 2 * satBehindGap
	satQueueRise = 2.0
)

// saturation finds the knee of the (load, throughput, latency) curve: the
// point after which more load brought no more throughput, only latency.
// None is named on the latencies of a generator starved of CPU while the
// target's own CPU stayed low (genstarved.go): they are loadlens's.
func saturation(c *context) []Finding {
	var out []Finding
	for _, f := range kneeOrBehind(c) {
		if _, starved := c.generatorStarved(f.To); !starved {
			out = append(out, f)
		}
	}
	return out
}

// kneeOrBehind finds the knee, or an open model's throughput behind the
// offered rate.
func kneeOrBehind(c *context) []Finding {
	if len(c.secs) < satMinSeconds {
		return nil
	}
	xs := smooth(c.column(func(s *clientSecond) float64 { return s.x }), 1)
	ls := smooth(c.column(func(s *clientSecond) float64 { return s.load }), 1)
	rs := smooth(c.column(func(s *clientSecond) float64 { return s.r }), 1)
	if knee, peak, ok := findKnee(xs, ls, rs); ok && (c.open || xs[knee] >= satLoadGain*xs[0]) {
		// A closed model flat from its first second shows no knee; moreVUsSameTPS speaks for it.
		if ep, ok := c.queued(knee, peak, ls[peak]/ls[knee]); ok {
			return []Finding{c.kneeFinding(knee, peak, ep)}
		}
	}
	if c.open {
		return c.behind(xs, ls, rs)
	}
	return nil
}

// findKnee returns the knee and the second of the highest load, by index.
func findKnee(xs, ls, rs []float64) (knee, peak int, ok bool) {
	peak = argmax(ls)
	// bestAfter[k] is the highest throughput from k up to the peak load.
	bestAfter := make([]float64, peak+1)
	for k := peak; k >= 0; k-- {
		bestAfter[k] = xs[k]
		if k < peak {
			bestAfter[k] = max(bestAfter[k], bestAfter[k+1])
		}
	}
	for k := 0; k+2 < peak; k++ {
		if ls[k] <= 0 || xs[k] <= 0 {
			continue
		}
		gain := ls[peak] / ls[k]
		if gain < satLoadGain {
			continue
		}
		if bestAfter[k]/xs[k]-1 > satElasticity*(gain-1) || !latencyRose(rs[k], rs[peak], gain) {
			continue
		}
		plateau := stats.Median(xs[k : peak+1])
		knee = k
		for knee < peak && xs[knee] < satPlateau*plateau {
			knee++
		}
		return knee, peak, true
	}
	return 0, 0, false
}

// latencyRose reports whether latency grew with the load past the knee.
func latencyRose(before, after, loadGain float64) bool {
	return after >= before*(1+satLatencyRise*(loadGain-1)) && after-before >= satLatencyAbs
}

func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

func (c *context) kneeFinding(knee, peak, queuedEp int) Finding {
	b := newBuilder(KindSaturation, Warning)
	kf, kt := c.window(knee, 1)
	pf, pt := c.window(peak, 1)
	ks, ps := c.secs[knee].sec, c.secs[peak].sec
	reqs, mean := c.client(SrcRequests), c.client(SrcMean)
	xKnee := b.add(c.fig(reqs, StatMedian, kf, kt, UnitReqPerSec, "throughput at the knee (median of 3 seconds)"))
	plateau := b.add(c.fig(reqs, StatMedian, ks, ps, UnitReqPerSec, "throughput from the knee to the highest load (median)"))
	xPeak := b.add(c.fig(reqs, StatMedian, pf, pt, UnitReqPerSec, "throughput at the highest load (median of 3 seconds)"))
	rKnee := b.add(c.fig(mean, StatMedian, kf, kt, UnitDuration, "mean response time at the knee (median of 3 seconds)"))
	rPeak := b.add(c.fig(mean, StatMedian, pf, pt, UnitDuration, "mean response time at the highest load (median of 3 seconds)"))
	onset := b.second(ks, StatOnset, "the knee: the first second throughput was within 5 % of its plateau")
	vKnee := c.vusFigure(b, kf, kt, "active VUs at the knee (median of 3 seconds)")
	var lKnee, lPeak ref
	var headline []any
	conc := []any{vKnee, b.noun(vKnee, " VU", " VUs")}
	inFlight := c.littlesN(b, xKnee, rKnee)
	if c.open {
		offered := c.client(SrcOffered)
		lKnee = b.add(c.fig(offered, StatMedian, kf, kt, UnitReqPerSec, "offered at the knee (median of 3 seconds)"))
		lPeak = b.add(c.fig(offered, StatMedian, pf, pt, UnitReqPerSec, "offered at the highest load (median of 3 seconds)"))
		headline = []any{"offered load rose to ", lPeak}
		// busy VUs count the second's most at once, not the requests in flight (trial A40: 8 VUs, 3.24 by Little's law)
		conc = []any{inFlight, " in flight"}
	} else {
		lKnee = vKnee
		lPeak = c.vusFigure(b, pf, pt, "active VUs at the highest load (median of 3 seconds)")
		headline = []any{"VUs rose ", b.derive(StatRatio, UnitRatio, "VUs at the highest load over VUs at the knee", lPeak, lKnee)}
	}
	title := append([]any{"Saturation at ", plateau, " from ", onset, " ("}, conc...)
	title = append(title, "): ")
	title = append(title, headline...)
	b.title(append(title, ", throughput did not, mean latency ", rKnee, " → ", rPeak)...)

	b.evidence(xKnee, "throughput at the knee: ", xKnee, "; median from there to the highest load: ", plateau)
	b.evidence(lKnee, "load at the knee: ", lKnee, " ", c.loadUnitWord())
	c.littlesEvidence(b, inFlight, xKnee, rKnee, vKnee)
	b.evidence(xPeak, "throughput at the highest load: ", xPeak, " (", b.derive(StatChange, UnitChange, "change of throughput from the knee", xPeak, xKnee), ")")
	b.evidence(lPeak, "load at its highest: ", lPeak, " ", c.loadUnitWord(), " (", b.derive(StatRatio, UnitRatio, "load at its highest over the knee's", lPeak, lKnee), " the knee)")
	peakLine := []any{"mean response time at the highest load: ", rPeak, " (", b.derive(StatRatio, UnitRatio, "mean response time at the highest load over the knee's", rPeak, rKnee), ")"}
	if src := c.client(SrcP95); c.has(src, ps) {
		peakLine = append(peakLine, ", ", name("p95"), " ", b.add(c.fig(src, StatValue, ps, ps, UnitDuration, "p95 at the highest load")),
			" at ", b.second(ps, StatSecond, "the second of the highest load"))
	}
	b.evidence(rPeak, peakLine...)
	end := c.secs[heldUntil(smooth(c.column(func(s *clientSecond) float64 { return s.load }), 1), peak)].sec
	if end > ps {
		b.evidence(b.second(end, StatSecond, "the last second the load held within 5 % of its highest"), "the load held near its highest from ",
			b.second(ps, StatSecond, "the second of the highest load"), " to ", b.second(end, StatSecond, "the last second the load held within 5 % of its highest"))
	}
	c.queueEvidence(b, queuedEp, knee, peak)
	if d := b.add(c.fig(c.client(SrcDropped), StatSum, ks, end, UnitCount, "iterations dropped past the knee")); b.fig(d).Value > 0 {
		b.evidence(d, d, " iterations dropped past the knee: no free VU, the target held them all")
	}
	return b.done(ks, end)
}

// heldUntil is the last index from peak on at which the (smoothed) load
// stayed within 5 % of its highest: the overload lasts as long, past the
// second it first peaked (trial A40's ramp peaked at 0:10 and held to 0:29).
func heldUntil(ls []float64, peak int) int {
	end := peak
	for end+1 < len(ls) && ls[end+1] >= satPlateau*ls[peak] {
		end++
	}
	return end
}

// loadUnitWord is what a load figure counts, after its number.
func (c *context) loadUnitWord() string {
	if c.open {
		return "offered"
	}
	return "VUs"
}

// behind finds an open-model run that never kept up with its offered rate:
// overloaded from the start, so there is no knee to see, only the gap.
func (c *context) behind(xs, ls, rs []float64) []Finding {
	run, ok := firstRun(len(xs), satBehindSecs, func(i int) bool {
		return ls[i] >= satBehind*xs[i] && ls[i]-xs[i] >= satBehindGap
	})
	grew := false
	if !ok {
		if run, ok = slowQueue(xs, ls, rs); !ok {
			return nil
		}
		grew = true
	}
	// A starved target's last seconds may complete nothing, and their mean
	// latency reads 0: the latency at the end is its last completions'.
	last := lastServed(rs, run)
	if !latencyRose(rs[run.first], rs[last], satBehind) || (grew && rs[last] < satQueueRise*rs[run.first]) {
		return nil
	}
	// Offered counts each iteration's requests when it starts; a flow that
	// thinks between steps offers its later requests seconds after. Only
	// requests that queued (an endpoint's own latency rose) show the gap is
	// the target's.
	queuedEp, ok := c.queued(run.first, run.last, satBehind)
	if !ok || !c.gapQueued(run.first, run.last, xs[last]*rs[last]) {
		return nil
	}
	from, to := c.secs[run.first].sec, c.secs[run.last].sec
	ff, ft := c.window(run.first, 1)
	lf, lt := c.window(last, 1)
	b := newBuilder(KindSaturation, Warning)
	reqs, offered, mean := c.client(SrcRequests), c.client(SrcOffered), c.client(SrcMean)
	x := b.add(c.fig(reqs, StatMedian, from, to, UnitReqPerSec, "throughput while behind (median)"))
	l := b.add(c.fig(offered, StatMedian, from, to, UnitReqPerSec, "offered while behind (median)"))
	r0 := b.add(c.fig(mean, StatMedian, ff, ft, UnitDuration, "mean response time when it fell behind (median of 3 seconds)"))
	r1 := b.add(c.fig(mean, StatMedian, lf, lt, UnitDuration, "mean response time at the end (median of 3 seconds)"))
	onset := b.second(from, StatOnset, "the first second throughput stayed below the offered rate")
	end := b.second(to, StatSecond, "the last second throughput stayed below the offered rate")
	// The title's figures are the medians of the seconds it names, as the
	// first evidence repeats; the onset's own seconds follow.
	b.title("Saturation: throughput stayed below the offered load from ", onset, " to ", end, ": ",
		x, " of ", l, " offered (medians), mean latency ", r0, " → ", r1)
	b.evidence(x, "from ", onset, " to ", end, " (medians): ", x, " completed of ", l, " offered")
	x0 := b.add(c.fig(reqs, StatMedian, ff, ft, UnitReqPerSec, "throughput when it fell behind (median of 3 seconds)"))
	l0 := b.add(c.fig(offered, StatMedian, ff, ft, UnitReqPerSec, "offered when it fell behind (median of 3 seconds)"))
	b.evidence(l0, "when it fell behind, ", b.second(ff, StatSecond, "the first second of the window at the onset"), "–",
		b.second(ft, StatSecond, "the last second of the window at the onset"), " (medians): ", x0, " completed of ", l0, " offered")
	v0 := c.vusFigure(b, ff, ft, "VUs in flight when it fell behind (median of 3 seconds)")
	c.littlesLaw(b, x0, r0, v0)
	endLine := []any{"mean response time: ", r1, " (", b.derive(StatRatio, UnitRatio, "mean response time at the end over the start's", r1, r0), ")"}
	if src := c.client(SrcP95); c.has(src, to) {
		endLine = append(endLine, ", ", name("p95"), " ", b.add(c.fig(src, StatValue, to, to, UnitDuration, "p95 at the end")))
	}
	b.evidence(r1, endLine...)
	v1 := c.vusFigure(b, lf, lt, "VUs in flight at the end (median of 3 seconds)")
	b.evidence(v1, "busy VUs: ", v0, " → ", v1, ", the queue grows")
	c.queueEvidence(b, queuedEp, run.first, run.last)
	so := b.add(c.fig(offered, StatSum, from, to, UnitCount, "{requests} offered while behind"))
	sx := b.add(c.fig(reqs, StatSum, from, to, UnitCount, "{requests} completed while behind"))
	gap := b.derive(StatDiff, UnitCount, "{requests} offered and not completed while behind", so, sx)
	n1 := b.derive(StatProduct, UnitNumber, "{requests} in flight at the end by Little's law, N = X·R",
		b.add(c.fig(reqs, StatMedian, lf, lt, UnitReqPerSec, "throughput at the end (median of 3 seconds)")), r1)
	b.evidence(gap, gap, " "+c.counts().Many+" offered from ", onset, " to ", end, " were not completed; by Little's law ", n1,
		" were in flight at the end: they queued")
	return []Finding{b.done(from, to)}
}

// slowQueue returns the first run of satQueueSecs seconds or more in a
// row in which fewer requests completed than were offered, when the gap
// over it added up to satQueueGap requests: a queue growing too slowly for
// behind's per-second bars. A target that only got slower while keeping
// up (its completions lag by the added latency) gaps a few requests.
func slowQueue(xs, ls, rs []float64) (span, bool) {
	run, ok := firstRun(len(xs), satQueueSecs, func(i int) bool { return ls[i] > xs[i] })
	if !ok {
		return span{}, false
	}
	var gap float64
	for i := run.first; i <= run.last; i++ {
		gap += ls[i] - xs[i]
	}
	return run, gap >= satQueueGap
}

// lastServed is the last second of run, by index, whose smoothed mean
// latency some completion gave (rs > 0); run.last when none did.
func lastServed(rs []float64, run span) int {
	for i := run.last; i > run.first; i-- {
		if rs[i] > 0 {
			return i
		}
	}
	return run.last
}

// littlesLaw adds the evidence N = X·R: the requests in flight that a
// throughput and mean response time imply, beside the VUs seen.
func (c *context) littlesLaw(b *builder, x, r, vus ref) {
	c.littlesEvidence(b, c.littlesN(b, x, r), x, r, vus)
}

// littlesN is the figure N = X·R of a throughput and a mean response time.
func (c *context) littlesN(b *builder, x, r ref) ref {
	return b.derive(StatProduct, UnitNumber, "{requests} in flight by Little's law, N = X·R", x, r)
}

// littlesEvidence states N = X·R beside the VUs seen.
func (c *context) littlesEvidence(b *builder, n, x, r, vus ref) {
	b.evidence(n, "Little's law: ", x, " × ", r, " = ", n, " "+c.counts().Many+" in flight (active VUs: ", vus, ")")
}

// gapQueued reports whether the requests offered and not completed over
// the seconds i..j of the client view (iterations dropped left out) are
// in flight, as inFlight (Little's law at the end) says: a queue at the
// target. Offered counts each iteration's requests when it starts; a flow
// that thinks between steps has not yet sent its later ones, and they are
// nowhere near in flight. A flow of one request sends it when the
// iteration starts: its gap is in flight, however few completions a
// starved target's last seconds give Little's law (the s36 trial's CPU-bound
// service completed 2–19 req/s of 100 for 5 seconds and read as no queue).
func (c *context) gapQueued(i, j int, inFlight float64) bool {
	if c.oneRequestFlows() {
		return true
	}
	var gap float64
	for _, s := range c.secs[i : j+1] {
		gap += s.load - s.droppedReqs - s.x
	}
	return gap <= 0 || inFlight >= satQueued*gap
}

// oneRequestFlows reports whether every scenario's iteration is one
// request (one endpoint in the layout, at most one request per completed
// iteration): each request offered was sent when its iteration started.
func (c *context) oneRequestFlows() bool {
	if c.run == nil {
		return false
	}
	per := scenarioPerIteration(c.run, runPerIteration(c.run))
	if per == nil {
		return false
	}
	eps := make([]int, len(per))
	for _, e := range c.run.Layout.Endpoints {
		if e.Scenario < 0 || int(e.Scenario) >= len(eps) {
			return false
		}
		eps[e.Scenario]++
	}
	for sc, n := range eps {
		if n != 1 || per[sc] > 1 {
			return false
		}
	}
	return true
}

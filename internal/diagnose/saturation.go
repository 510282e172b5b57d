package diagnose

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
)

// saturation finds the knee of the (load, throughput, latency) curve: the
// point after which more load brought no more throughput, only latency.
func saturation(c *context) []Finding {
	if len(c.secs) < satMinSeconds {
		return nil
	}
	xs := smooth(c.column(func(s *clientSecond) float64 { return s.x }), 1)
	ls := smooth(c.column(func(s *clientSecond) float64 { return s.load }), 1)
	rs := smooth(c.column(func(s *clientSecond) float64 { return s.r }), 1)
	if knee, peak, ok := findKnee(xs, ls, rs); ok && (c.open || xs[knee] >= satLoadGain*xs[0]) {
		// A closed model flat from its first second shows no knee; moreVUsSameTPS speaks for it.
		return []Finding{c.kneeFinding(xs, ls, rs, knee, peak)}
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
		plateau := median(xs[k : peak+1])
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

func (c *context) kneeFinding(xs, ls, rs []float64, knee, peak int) Finding {
	k, p := &c.secs[knee], &c.secs[peak]
	plateau := median(xs[knee : peak+1])
	loadName, what := "vus", "VUs"
	conc := count(k.n) + " VUs"
	headline := "VUs rose " + times(ls[peak]/ls[knee]) + " more"
	if c.open {
		loadName, what = "offered_rate", "offered"
		conc = count(k.n) + " in flight"
		headline = "offered load rose to " + rate(ls[peak])
	}
	f := Finding{
		Kind: KindSaturation, Severity: Warning, From: k.sec, To: p.sec,
		Title: "Saturation at " + rate(plateau) + " from " + at(k.sec) + " (" + conc + "): " + headline +
			", throughput did not, mean latency " + dur(rs[knee]) + " → " + dur(rs[peak]),
		Evidence: []Evidence{
			{Source: "http_reqs", Sec: k.sec, Value: xs[knee], Text: "throughput at the knee: " + rate(xs[knee]) +
				"; median from there to the highest load: " + rate(plateau)},
			{Source: loadName, Sec: k.sec, Value: ls[knee], Text: "load at the knee: " + num(ls[knee]) + " " + c.loadUnit()},
			littlesLaw(k.sec, xs[knee], rs[knee], k.n),
			{Source: "http_reqs", Sec: p.sec, Value: xs[peak], Text: "throughput at the highest load: " + rate(xs[peak]) +
				" (" + signedPct(xs[peak]/xs[knee]-1) + ")"},
			{Source: loadName, Sec: p.sec, Value: ls[peak], Text: what + " at its highest: " + num(ls[peak]) + " " + c.loadUnit() +
				" (" + times(ls[peak]/ls[knee]) + " the knee)"},
			{Source: "http_req_duration", Sec: p.sec, Value: rs[peak], Text: "mean response time at the highest load: " + dur(rs[peak]) +
				" (" + times(rs[peak]/rs[knee]) + "), p95 " + dur(p.p95)},
		},
		Remedies: remediesFor(KindSaturation),
	}
	if d := c.dropped(knee, peak); d > 0 {
		f.Evidence = append(f.Evidence, Evidence{Source: "dropped_iterations", Sec: p.sec, Value: d,
			Text: count(d) + " iterations dropped past the knee: no free VU, the target held them all"})
	}
	return f
}

// behind finds an open-model run that never kept up with its offered rate:
// overloaded from the start, so there is no knee to see, only the gap.
func (c *context) behind(xs, ls, rs []float64) []Finding {
	run, ok := firstRun(len(xs), satBehindSecs, func(i int) bool {
		return ls[i] >= satBehind*xs[i] && ls[i]-xs[i] >= satBehindGap
	})
	if !ok || !latencyRose(rs[run.first], rs[run.last], satBehind) {
		return nil
	}
	first, last := &c.secs[run.first], &c.secs[run.last]
	return []Finding{{
		Kind: KindSaturation, Severity: Warning, From: first.sec, To: last.sec,
		Title: "Saturation: throughput stayed at " + rate(median(xs[run.first:run.last+1])) + " below the offered " +
			rate(median(ls[run.first:run.last+1])) + " from " + at(first.sec) + ", mean latency " + dur(rs[run.first]) + " → " + dur(rs[run.last]),
		Evidence: []Evidence{
			{Source: "offered_rate", Sec: first.sec, Value: ls[run.first], Text: "offered: " + rate(ls[run.first])},
			{Source: "http_reqs", Sec: first.sec, Value: xs[run.first], Text: "completed: " + rate(xs[run.first])},
			littlesLaw(first.sec, xs[run.first], rs[run.first], first.n),
			{Source: "http_req_duration", Sec: last.sec, Value: rs[run.last], Text: "mean response time: " + dur(rs[run.last]) +
				" (" + times(rs[run.last]/rs[run.first]) + "), p95 " + dur(last.p95)},
			{Source: "vus", Sec: last.sec, Value: last.n, Text: "busy VUs: " + count(first.n) + " → " + count(last.n) + ", the queue grows"},
		},
		Remedies: remediesFor(KindSaturation),
	}}
}

// littlesLaw is the evidence N = X·R: the requests in flight that a
// throughput and mean response time imply, beside the VUs seen.
func littlesLaw(sec int, x, r, vus float64) Evidence {
	return Evidence{Source: "N = X·R", Sec: sec, Value: x * r,
		Text: "Little's law: " + rate(x) + " × " + num(r) + " s = " + num(x*r) + " requests in flight (active VUs: " + count(vus) + ")"}
}

// dropped sums the dropped iterations of the seconds i..j (indexes).
func (c *context) dropped(i, j int) float64 {
	var d float64
	for _, s := range c.secs[i : j+1] {
		d += s.dropped
	}
	return d
}

// signedPct formats a change as "+3 %" or "-12 %".
func signedPct(f float64) string {
	if f >= 0 {
		return "+" + pct(f)
	}
	return pct(f)
}

package diagnose

// Drift thresholds. Twenty seconds of steady load is the least over which
// a trend can be told from noise; Kendall's tau ≥ 0.5 is three standard
// deviations of pure noise at that length, and a rise of a quarter of the
// starting latency (and at least 1 ms) is one a user would notice.
const (
	driftMinSeconds = 20
	driftSteady     = 0.9  // load within 10 % of its highest: the hold phase
	driftKeepsUp    = 0.9  // open model: throughput at least 90 % of the offered rate
	driftTau        = 0.5  // how consistently latency rose
	driftRise       = 0.25 // the fitted rise over the hold, relative to its start
	driftEnds       = 1.2  // the last quarter's median over the first quarter's
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
	secsOf := c.secs[hold.first : hold.last+1]
	t := make([]float64, len(secsOf))
	xs := make([]float64, len(secsOf))
	for i := range secsOf {
		t[i], xs[i] = float64(secsOf[i].sec), secsOf[i].x
	}
	if c.open && median(xs) < driftKeepsUp*median(ls[hold.first:hold.last+1]) {
		return nil // not keeping up: saturation, not drift
	}
	for _, q := range []struct {
		name string
		get  func(*clientSecond) float64
	}{{"p95", func(s *clientSecond) float64 { return s.p95 }}, {"p50", func(s *clientSecond) float64 { return s.p50 }}} {
		ys := make([]float64, len(secsOf))
		for i := range secsOf {
			ys[i] = q.get(&secsOf[i])
		}
		if f, ok := c.drift(q.name, t, ys, xs); ok {
			return []Finding{f}
		}
	}
	return nil
}

// drift checks one latency figure over the hold phase.
func (c *context) drift(name string, t, ys, xs []float64) (Finding, bool) {
	a, b := theilSen(t, ys)
	start, end := a+b*t[0], a+b*t[len(t)-1]
	tau := kendallTau(t, ys)
	quarter := max(len(ys)/4, 1)
	early, late := median(ys[:quarter]), median(ys[len(ys)-quarter:])
	rise := end - start
	if tau < driftTau || start <= 0 || rise < driftRise*start || rise < satLatencyAbs || late < driftEnds*early {
		return Finding{}, false
	}
	from, to := int(t[0]), int(t[len(t)-1])
	perMinute := b * 60
	steady := median(xs)
	_, xSlope := theilSen(t, xs)
	load := rate(steady)
	if c.closed {
		load = count(c.secs[0].n) + " VUs"
		for _, s := range c.secs {
			if s.sec == from {
				load = count(s.n) + " VUs"
			}
		}
	}
	return Finding{
		Kind: KindLatencyDrift, Severity: Warning, From: from, To: to,
		Title: "Latency drifts up at a steady " + load + ": " + name + " " + dur(start) + " → " + dur(end) + " over " +
			at(to-from) + " (+" + dur(perMinute) + "/min) from " + at(from),
		Evidence: []Evidence{
			{Source: "http_req_duration", Sec: from, Value: early, Text: name + " median of the first quarter: " + dur(early)},
			{Source: "http_req_duration", Sec: to, Value: late, Text: name + " median of the last quarter: " + dur(late)},
			{Source: "http_req_duration", Sec: to, Value: b, Text: "Theil–Sen slope of " + name + ": +" + dur(perMinute) +
				" per minute; Kendall's tau " + num(tau) + " (1 = rose every second)"},
			{Source: "http_reqs", Sec: from, Value: steady, Text: "throughput meanwhile: median " + rate(steady) +
				", trend " + signedPct(xSlope*float64(to-from)/steady) + " over the hold"},
		},
		Remedies: remediesFor(KindLatencyDrift),
	}, true
}

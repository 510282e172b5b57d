package diagnose

// More-VUs thresholds (case study 2: 1,500 → 3,000 VUs, ~3,700 TPS both
// times, 450 → 800 ms). In a closed model throughput is N / (R + think
// time), so when the VUs grow and throughput does not, the response time
// must have grown instead: the system was saturated, and the extra VUs
// only queued.
const (
	vusGain       = 1.5  // the VUs grew at least 1.5×
	vusFlat       = 0.15 // throughput stayed within ±15 %
	vusLatency    = 0.6  // response time grew at least 60 % as much as the VUs
	vusMinSeconds = 6
)

// moreVUsSameTPS finds a closed-model ramp whose added VUs brought no
// throughput, only response time.
func moreVUsSameTPS(c *context) []Finding {
	if !c.closed || len(c.secs) < vusMinSeconds {
		return nil
	}
	ns := smooth(c.column(func(s *clientSecond) float64 { return s.n }), 1)
	xs := smooth(c.column(func(s *clientSecond) float64 { return s.x }), 1)
	rs := smooth(c.column(func(s *clientSecond) float64 { return s.r }), 1)
	peak := argmax(ns)
	if xs[peak] <= 0 {
		return nil
	}
	// a is the earliest second from which throughput stayed flat up to the peak.
	a := peak
	for a > 0 && within(xs[a-1], xs[peak], vusFlat) {
		a--
	}
	if ns[a] <= 0 || rs[a] <= 0 {
		return nil
	}
	gain := ns[peak] / ns[a]
	if gain < vusGain || rs[peak] < rs[a]*(1+vusLatency*(gain-1)) || rs[peak]-rs[a] < satLatencyAbs {
		return nil
	}
	from, to := &c.secs[a], &c.secs[peak]
	return []Finding{{
		Kind: KindMoreVUsSameTPS, Severity: Warning, From: from.sec, To: to.sec,
		Title: "More VUs, same throughput: VUs " + count(ns[a]) + " → " + count(ns[peak]) + " (" + times(gain) + ") from " + at(from.sec) +
			", throughput stayed ~" + rate(median(xs[a:peak+1])) + ", mean response time " + dur(rs[a]) + " → " + dur(rs[peak]) +
			" (" + times(rs[peak]/rs[a]) + ")",
		Evidence: []Evidence{
			{Source: "vus", Sec: from.sec, Value: ns[a], Text: "VUs when throughput stopped rising: " + count(ns[a])},
			{Source: "vus", Sec: to.sec, Value: ns[peak], Text: "VUs at the most: " + count(ns[peak]) + " (" + times(gain) + ")"},
			{Source: "http_reqs", Sec: to.sec, Value: xs[peak], Text: "throughput " + rate(xs[a]) + " → " + rate(xs[peak]) +
				" (" + signedPct(xs[peak]/xs[a]-1) + ")"},
			{Source: "http_req_duration", Sec: to.sec, Value: rs[peak], Text: "mean response time " + dur(rs[a]) + " → " + dur(rs[peak]) +
				" (" + times(rs[peak]/rs[a]) + "), p95 " + dur(from.p95) + " → " + dur(to.p95)},
			littlesLaw(from.sec, xs[a], rs[a], ns[a]),
			littlesLaw(to.sec, xs[peak], rs[peak], ns[peak]),
		},
		Remedies: remediesFor(KindMoreVUsSameTPS),
	}}
}

// within reports whether x is within ±tol (a fraction) of ref.
func within(x, ref, tol float64) bool {
	return x >= ref*(1-tol) && x <= ref*(1+tol)
}

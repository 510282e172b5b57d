package compare

import "math"

// An error rate whose runs are too short or too thin for stretches can
// still be plainly different: the demo's improved run failed none of its
// requests in any of its 11 compared seconds, the naive run 76–85 % in
// every one of its 15, and the gate said "not judged" (+80.6 pp against
// +1 pp). When every second of one run lies on one side of every second
// of the other, any mean of the seconds, weighted as the runs' requests
// weigh them, differs by at least the gap between their ranges and at most
// their spread: that range is the interval, no statistic needed. With 5
// seconds a side (minSeconds), seconds drawn from one distribution fall
// apart so by chance 2 times in C(10, 5) = 252.

// separatedSeconds returns the range of an error rate's change from run a
// to run b when their seconds' own rates do not overlap, as a difference
// of rates; ok is false when they overlap, or the metric is not an error
// rate.
func separatedSeconds(a, b *rowSeconds, m Metric) (lo, hi float64, ok bool) {
	if m.Base() != ErrorRate {
		return 0, 0, false
	}
	aLo, aHi, okA := secondRates(a)
	bLo, bHi, okB := secondRates(b)
	if !okA || !okB || aHi >= bLo && bHi >= aLo {
		return 0, 0, false
	}
	return bLo - aHi, bHi - aLo, true
}

// secondRates is the least and the most failed share of a row's seconds
// with requests; ok when minSeconds of them had requests.
func secondRates(r *rowSeconds) (lo, hi float64, ok bool) {
	n := 0
	lo, hi = 1, 0
	for _, s := range r.secs {
		if s.reqs == 0 {
			continue
		}
		x := float64(s.failed) / float64(s.reqs)
		lo, hi, n = min(lo, x), max(hi, x), n+1
	}
	return lo, hi, n >= minSeconds
}

// A latency's runs can be as plainly apart: the trial's p50 rose from 20.5–
// 21.8 ms in every second of A to 31–38 ms in every second of B, and the
// table held it back as noise. The runs' own noise (halves, stretches)
// says how far a run moves by itself; when every second of one run lies
// beyond every second of the other, no such movement within a run made
// the change. The generator's lag, which can move every second, still
// sets its floor (lagFloor).

// latencySecondsApart reports whether every compared second's own
// percentile m of one run lies beyond every second's of the other, with
// minSeconds seconds a side holding the requests the percentile needs
// (batchNeed); a second with fewer is left out.
func latencySecondsApart(a, b *rowSeconds, m Metric) bool {
	aLo, aHi, okA := secondPercentiles(a, m)
	bLo, bHi, okB := secondPercentiles(b, m)
	return okA && okB && (aHi < bLo || bHi < aLo)
}

// secondPercentiles is the least and the most of a row's seconds' own
// percentile m in ms; ok when minSeconds seconds held enough requests.
func secondPercentiles(r *rowSeconds, m Metric) (lo, hi float64, ok bool) {
	need, n := batchNeed(m.Base()), 0
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range r.secs {
		if !s.hasPercentiles || s.reqs < need {
			continue
		}
		x := s.p50
		switch m.Base() {
		case P95:
			x = s.p95
		case P99:
			x = s.p99
		}
		lo, hi, n = min(lo, x), max(hi, x), n+1
	}
	return lo, hi, n >= minSeconds
}

// rateSecondsApart reports whether every compared second of one run served
// more (of rate m: all requests, or the successful ones) than every second
// of the other: the change is then in every second, whatever the runs'
// halves or stretches say (a fix that took a warming-up 36–189 req/s to
// 242–371 read "~ < noise 260%").
func rateSecondsApart(a, b *rowSeconds, m Metric) bool {
	aLo, aHi, okA := servedRange(a, m)
	bLo, bHi, okB := servedRange(b, m)
	return okA && okB && (aHi < bLo || bHi < aLo)
}

// servedRange is the least and the most a row's seconds served of rate m;
// ok when it has minSeconds seconds.
func servedRange(r *rowSeconds, m Metric) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range r.secs {
		x := float64(s.reqs)
		if m.Base() == Succeeded {
			x -= float64(s.failed)
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi, len(r.secs) >= minSeconds
}

package threshold

// LeavesOut returns the share of requests a percentile-like aggregation
// leaves out of its figure: 5% for p(95) (p is 95), half for med, none for
// max; false for the others (avg, min), which no share of failures decides.
// A latency limit is judged on failures when more failed than this.
func LeavesOut(agg AggKind, p float64) (float64, bool) {
	switch agg {
	case Percentile:
		return (100 - p) / 100, true
	case Med:
		return 0.5, true
	case Max:
		return 0, true
	}
	return 0, false
}

package threshold

import "time"

// The SLO a capacity search judges its steps by is read from the test's
// thresholds: these helpers find its parts.

// SLOText lists the thresholds as the test writes them, key and
// expression, for the line that opens a search.
func SLOText(defs []Threshold) string {
	s := ""
	for i, t := range defs {
		if i > 0 {
			s += ", "
		}
		s += t.Key + " " + t.Expr
	}
	return s
}

// SLOLatency returns the test's whole-run p95 latency limit, if it has
// one, for the line drawn on the capacity chart.
func SLOLatency(defs []Threshold) time.Duration {
	for _, t := range defs {
		if t.Metric == "http_req_duration" && len(t.Filter) == 0 && t.Agg == Percentile && t.P == 95 {
			return time.Duration(t.Value * float64(time.Millisecond))
		}
	}
	return 0
}

// ErrorBudget returns the share of requests the test's thresholds allow
// to fail (the tightest upper limit on http_req_failed over every
// request, `rate == 0` allowing none), or 0 for the search's default: a
// counter-only SLO must not pass a target that answers only errors.
func ErrorBudget(defs []Threshold) float64 {
	budget := 0.0
	for _, t := range defs {
		none := t.Op == Eq && t.Value == 0
		if t.Metric != "http_req_failed" || len(t.Filter) > 0 || t.Agg != Rate || (t.Op != Lt && t.Op != Lte && !none) {
			continue
		}
		if v := max(t.Value, 1e-9); budget == 0 || v < budget { // rate<0 or <=0 allows none
			budget = min(v, 1)
		}
	}
	return budget
}

// LatencyLimit returns the tightest upper limit the test's thresholds put
// on request duration, or 0: scheduling lag adds to every duration, so a
// capacity search judges lag against it.
func LatencyLimit(defs []Threshold) time.Duration {
	var limit time.Duration
	for _, t := range defs {
		if t.Metric != "http_req_duration" || (t.Op != Lt && t.Op != Lte) || t.Value <= 0 {
			continue
		}
		if d := time.Duration(t.Value * float64(time.Millisecond)); limit == 0 || d < limit {
			limit = d
		}
	}
	return limit
}

// LatencyPercentile returns the highest percentile (0..100) an
// http_req_duration threshold judges, 0 when none does: the figure that
// needs the most requests to be more than a step's slowest few.
func LatencyPercentile(defs []Threshold) float64 {
	var p float64
	for _, t := range defs {
		if t.Metric == "http_req_duration" && t.Agg == Percentile {
			p = max(p, t.P)
		}
	}
	return p
}

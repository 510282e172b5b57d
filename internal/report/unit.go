package report

import (
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// runUnit is what a run's samples count (metrics.Run.Unit).
func runUnit(r *metrics.Run) units.Unit { return r.Unit() }

// metricUnit is what a metric of r counts (metrics.Run.MetricUnit).
func metricUnit(r *metrics.Run, metric string) units.Unit { return r.MetricUnit(metric) }

// countHeads names an endpoint table's count and rate columns in u:
// Requests and RPS for requests, as k6 and JMeter name them; Calls and
// Calls/s, Sessions and Sessions/s otherwise.
func countHeads(u units.Unit) (count, rate string) {
	if u.Or() == units.Requests {
		return "Requests", "RPS"
	}
	return capital(u.Many), capital(u.PerSecond())
}

// countHeadsText is countHeads for the terminal's upper-case tables:
// REQS and RPS, CALLS and CALLS/S, OPS and OPS/S.
func countHeadsText(u units.Unit) (count, rate string) {
	switch u.Or() {
	case units.Requests:
		return "REQS", "RPS"
	case units.Operations:
		return "OPS", "OPS/S"
	}
	count, rate = countHeads(u)
	return strings.ToUpper(count), strings.ToUpper(rate)
}

// capital writes s with its first letter in upper case.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// runCount writes the run's count of samples n in its unit, and, for a
// run of several units, what they are: "600 operations (400 calls, 200
// sessions)", so that no call or session is counted as a request.
func runCount(r *metrics.Run, n int64) string {
	return runUnit(r).Count(n) + unitSplit(r, " (", ")")
}

// unitSplit is a run of several units' count in each ("400 calls, 200
// sessions") between before and after; "" for a run of one unit.
func unitSplit(r *metrics.Run, before, after string) string {
	if runUnit(r) != units.Operations {
		return ""
	}
	var parts []string
	for _, c := range r.UnitCounts() {
		parts = append(parts, c.Unit.Count(c.N))
	}
	return before + strings.Join(parts, ", ") + after
}

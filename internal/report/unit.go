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
// REQS and RPS, CALLS and CALLS/S.
func countHeadsText(u units.Unit) (count, rate string) {
	if u.Or() == units.Requests {
		return "REQS", "RPS"
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

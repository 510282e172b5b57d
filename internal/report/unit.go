package report

import (
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// runUnit is what a run's samples count, named once for every page:
// requests, gRPC calls or sessions (units.ForProtocols of its endpoints),
// requests for a run that mixes them.
func runUnit(r *metrics.Run) units.Unit {
	protocols := make([]string, len(r.Layout.Endpoints))
	for i, e := range r.Layout.Endpoints {
		protocols[i] = e.Protocol
	}
	return units.ForProtocols(protocols)
}

// metricUnit is what a metric of r counts: a session protocol's metric
// (grpc_req_duration, ws_reply_time) its protocol's calls or sessions,
// any other the run's samples (runUnit).
func metricUnit(r *metrics.Run, metric string) units.Unit {
	p, _, ok := strings.Cut(metric, "_")
	if ok && p != "http" {
		for _, e := range r.Layout.Endpoints {
			if e.Protocol == p {
				return units.ForProtocol(p)
			}
		}
	}
	return runUnit(r)
}

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

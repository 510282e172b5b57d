package report

import (
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// latencyName names what a run's headline latency is of (metrics.Run.LatencyOf):
// its HTTP requests' "latency", or a gRPC-only run's "call duration"
// (grpc_req_duration), so that a call is not read as an HTTP request.
func latencyName(r *metrics.Run) string {
	if r.LatencyOf() == "calls" {
		return "call duration"
	}
	return "latency"
}

// latencyNote says which endpoints the all-endpoints latency leaves out
// and which metrics hold their durations; "" when it merges every endpoint's.
func latencyNote(r *metrics.Run) string {
	var sessions, calls []string
	for i := range r.Endpoints {
		if r.Latency(i) || r.Endpoints[i].Requests == 0 {
			continue
		}
		e := &r.Layout.Endpoints[i]
		if e.Session {
			sessions = appendNew(sessions, e.Protocol+"_session_duration")
		} else {
			calls = appendNew(calls, e.Protocol+"_req_duration")
		}
	}
	var out []string
	if len(sessions) > 0 {
		out = append(out, "sessions' lengths (how long each was held) are in the Sessions table and "+strings.Join(sessions, ", "))
	}
	if len(calls) > 0 {
		out = append(out, "calls' durations are in "+strings.Join(calls, ", "))
	}
	if len(out) == 0 {
		return ""
	}
	switch r.LatencyOf() {
	case "requests":
		return "All endpoints' latency is the HTTP requests' alone, as http_req_duration: " + strings.Join(out, "; ") + "."
	case "calls":
		return "All endpoints' latency is the calls' alone (" + callMetrics(r) + "): " + strings.Join(out, "; ") + "."
	}
	return "No endpoint has a request latency: " + strings.Join(out, "; ") + "."
}

// callMetrics names the <protocol>_req_duration metrics of a run's calls.
func callMetrics(r *metrics.Run) string {
	var names []string
	for i, e := range r.Layout.Endpoints {
		if r.Latency(i) && e.Protocol != "" {
			names = appendNew(names, e.Protocol+"_req_duration")
		}
	}
	return strings.Join(names, ", ")
}

// appendNew appends s to list unless it is there.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// latencyText formats a headline latency figure: "-" for a run whose
// endpoints are sessions alone, which has no request latency.
func latencyText(r *metrics.Run, d time.Duration) string {
	if r.LatencyOf() == "" && len(r.Endpoints) > 0 {
		return "-"
	}
	return units.Duration(d)
}

// callPrefix is "call " before a gRPC-only run's headline percentiles.
func callPrefix(r *metrics.Run) string {
	if r.LatencyOf() == "calls" {
		return "call "
	}
	return ""
}

package metrics

import (
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// Unit is what the run's samples count, named once for every page:
// requests, gRPC calls or sessions (units.ForProtocols of its endpoints),
// operations for a run that mixes them (UnitCounts splits them).
func (r *Run) Unit() units.Unit {
	protocols := make([]string, len(r.Layout.Endpoints))
	for i, e := range r.Layout.Endpoints {
		protocols[i] = e.Protocol
	}
	return units.ForProtocols(protocols)
}

// MetricUnit is what a metric of r counts: a session protocol's metric
// (grpc_req_duration, ws_reply_time) its protocol's calls or sessions
// when the run has that protocol, the run's latency (http_req_duration)
// what it times (LatencyOf: requests, or calls when it has no HTTP step),
// any other the run's samples (Unit).
func (r *Run) MetricUnit(metric string) units.Unit {
	if metric == "http_req_duration" || metric == "http_req_waiting" {
		switch r.LatencyOf() {
		case "requests":
			return units.Requests
		case "calls":
			return units.Calls
		}
	}
	p, _, ok := strings.Cut(metric, "_")
	if ok && p != "http" {
		for _, e := range r.Layout.Endpoints {
			if e.Protocol == p {
				return units.ForProtocol(p)
			}
		}
	}
	return r.Unit()
}

// UnitCount is how many samples of one unit a run has.
type UnitCount struct {
	Unit units.Unit
	N    int64
}

// UnitCounts splits the run's samples by their protocols' units (calls,
// sessions, requests), in the order the units first appear among its
// endpoints: what the operations of a run of several units are.
func (r *Run) UnitCounts() []UnitCount {
	var out []UnitCount
	for i, e := range r.Layout.Endpoints {
		if i >= len(r.Endpoints) {
			break
		}
		u := units.ForProtocol(e.Protocol)
		j := slices.IndexFunc(out, func(c UnitCount) bool { return c.Unit == u })
		if j < 0 {
			out, j = append(out, UnitCount{Unit: u}), len(out)
		}
		out[j].N += r.Endpoints[i].Requests
	}
	return out
}

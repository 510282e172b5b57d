package metrics

import (
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// Unit is what the run's samples count, named once for every page:
// requests, gRPC calls or sessions (units.ForProtocols of its endpoints),
// requests for a run that mixes them.
func (r *Run) Unit() units.Unit {
	protocols := make([]string, len(r.Layout.Endpoints))
	for i, e := range r.Layout.Endpoints {
		protocols[i] = e.Protocol
	}
	return units.ForProtocols(protocols)
}

// MetricUnit is what a metric of r counts: a session protocol's metric
// (grpc_req_duration, ws_reply_time) its protocol's calls or sessions
// when the run has that protocol, any other the run's samples (Unit).
func (r *Run) MetricUnit(metric string) units.Unit {
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

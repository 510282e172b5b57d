package engine

import (
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// flowUnit is what a scenario's steps count (units.ForProtocols), so that
// its notes say "3 calls in flight" for gRPC, "3 requests" for HTTP,
// "3 operations" for a flow of both.
func flowUnit(flow []plan.Step) units.Unit {
	var protocols []string
	plan.Walk(flow, func(st *plan.Step) {
		switch st.Kind {
		case plan.RequestStep:
			protocols = append(protocols, "")
		case plan.SessionStep:
			protocols = append(protocols, st.Session.Protocol)
		}
	})
	return units.ForProtocols(protocols)
}

// PlanUnit is what a test's steps count over all its scenarios
// (units.ForProtocols): gRPC calls, sessions, requests, or operations
// when the test mixes them.
func PlanUnit(p *plan.Plan) units.Unit {
	var flow []plan.Step
	for _, sc := range p.Scenarios {
		flow = append(flow, sc.Flow...)
	}
	return flowUnit(flow)
}

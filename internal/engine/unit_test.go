package engine

import (
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// TestFlowUnitNamesTheGracefulStopNote: the graceful-stop note ("3 calls
// in flight") counts in what the scenario's steps count, nested steps
// included; a flow mixing HTTP and gRPC counts operations, neither unit.
func TestFlowUnitNamesTheGracefulStopNote(t *testing.T) {
	session := func(p string) plan.Step {
		return plan.Step{Kind: plan.SessionStep, Session: &plan.Session{Protocol: p}}
	}
	request := plan.Step{Kind: plan.RequestStep}
	tests := []struct {
		name string
		flow []plan.Step
		want string
	}{
		{"http", []plan.Step{request}, "3 requests"},
		{"grpc", []plan.Step{session("grpc"), session("grpc")}, "3 calls"},
		{"ws in a group", []plan.Step{{Kind: plan.GroupStep, Block: &plan.Block{Steps: []plan.Step{session("ws")}}}}, "3 sessions"},
		{"http and grpc", []plan.Step{request, session("grpc")}, "3 operations"},
	}
	for _, tc := range tests {
		if got := flowUnit(tc.flow).Count(3); got != tc.want {
			t.Errorf("%s: %q in flight, want %q", tc.name, got, tc.want)
		}
	}
	if flowUnit(nil) != units.Requests {
		t.Error("an empty flow does not count requests")
	}
}

// TestPlanUnitOverScenarios: a test's unit is its scenarios' steps
// together: gRPC calls in two scenarios are calls, a gRPC scenario beside
// a WebSocket one counts operations.
func TestPlanUnitOverScenarios(t *testing.T) {
	session := func(p string) plan.Step {
		return plan.Step{Kind: plan.SessionStep, Session: &plan.Session{Protocol: p}}
	}
	of := func(flows ...[]plan.Step) *plan.Plan {
		p := &plan.Plan{}
		for _, f := range flows {
			p.Scenarios = append(p.Scenarios, &plan.Scenario{Flow: f})
		}
		return p
	}
	tests := []struct {
		name string
		p    *plan.Plan
		want units.Unit
	}{
		{"grpc twice", of([]plan.Step{session("grpc")}, []plan.Step{session("grpc")}), units.Calls},
		{"ws", of([]plan.Step{session("ws")}), units.Sessions},
		{"grpc and ws", of([]plan.Step{session("grpc")}, []plan.Step{session("ws")}), units.Operations},
	}
	for _, tc := range tests {
		if got := PlanUnit(tc.p); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

package dist

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

func TestAgentSeriesPerAgentAndSecond(t *testing.T) {
	layout := oneGETLayout()
	g := fakeGenerator(layout, 1, 4)
	g.agents[0].addr, g.agents[1].addr = "10.0.0.7:6565", "10.0.0.8:6565"
	snap := func(sec int, reqs, fails, iters, dropped int64, lag time.Duration) *metrics.Snapshot {
		s := metrics.NewSnapshot(sec, layout)
		s.Endpoints[0].Requests, s.Endpoints[0].Failures[sample.HTTP5xx] = reqs, fails
		s.Scenarios[0].Iterations, s.Scenarios[0].Dropped = iters, dropped
		if lag > 0 {
			s.Scenarios[0].Lag = &metrics.Hist{}
			s.Scenarios[0].Lag.Record(lag)
		}
		return s
	}
	g.update(func() {
		g.agents[0].receive(0, 0.98, snap(0, 30, 3, 30, 12, 41*time.Millisecond))
		g.agents[1].receive(0, 1.2, snap(0, 100, 0, 50, 0, 0))
	})
	g.Second(0)
	got := g.AgentSeries(0)
	tests := []struct {
		name, agent string
		want        float64
	}{
		{diagnose.AgentRequests, "agent 1 10.0.0.7:6565", 30},
		{diagnose.AgentErrors, "agent 1 10.0.0.7:6565", 3},
		{diagnose.AgentIterations, "agent 1 10.0.0.7:6565", 30},
		{diagnose.AgentDropped, "agent 1 10.0.0.7:6565", 12},
		{diagnose.AgentCPU, "agent 1 10.0.0.7:6565", 0.98},
		{diagnose.AgentCPUShare, "agent 1 10.0.0.7:6565", 0.98},
		{diagnose.AgentRequests, "agent 2 10.0.0.8:6565", 100},
		{diagnose.AgentIterations, "agent 2 10.0.0.8:6565", 50},
		{diagnose.AgentCPUShare, "agent 2 10.0.0.8:6565", 0.3},
		{diagnose.AgentLag, "agent 2 10.0.0.8:6565", 0},
	}
	for _, tt := range tests {
		found := got.Find(tt.name, diagnose.AgentLabel, tt.agent, "role", "generator", "target", diagnose.AgentsTarget)
		if len(found) != 1 || len(found[0].Points) != 1 || found[0].Points[0].Sec != 0 || math.Abs(found[0].Points[0].Value-tt.want) > 1e-9 {
			t.Errorf("%s of %s: %+v, want one point %v at second 0", tt.name, tt.agent, found, tt.want)
		}
	}
	lag := got.Find(diagnose.AgentLag, diagnose.AgentLabel, "agent 1 10.0.0.7:6565")
	if len(lag) != 1 || math.Abs(lag[0].Points[0].Value-0.041) > 0.041*0.01 {
		t.Errorf("agent 1's lag p99: %+v, want 41 ms within HDR precision", lag)
	}
	if n := len(got.Find(diagnose.AgentOffered)); n != 0 {
		t.Errorf("%d offered series for a test without an open-model scenario", n)
	}

	// Second 1: agent 2 sends nothing and is marked missing: it has no point, not a zero.
	g.update(func() { g.agents[0].receive(1, math.NaN(), snap(1, 5, 0, 5, 0, 0)) })
	g.Second(1)
	got = g.AgentSeries(1)
	if n := len(got.Find(diagnose.AgentRequests, diagnose.AgentLabel, "agent 2 10.0.0.8:6565")); n != 0 {
		t.Errorf("agent 2, missing in second 1, has %d requests series there", n)
	}
	if n := len(got.Find(diagnose.AgentCPU)); n != 0 {
		t.Errorf("second 1's CPU was not measured, yet %d CPU series", n)
	}
	if len(g.AgentSeries(0)) != 0 {
		t.Error("AgentSeries(0) answers after second 1 was taken")
	}
}

func TestOfferedInAddsUpToTheSchedule(t *testing.T) {
	// 10/s for 3s then ramping to 30/s over 2s, starting 1s into the run: 30 + 40 = 70 arrivals.
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 10, Stages: []plan.Stage{{Duration: 3 * time.Second, Target: 10}, {Duration: 2 * time.Second, Target: 30}}}
	p := &plan.Plan{Scenarios: []*plan.Scenario{{Name: "s", Load: load, StartTime: time.Second}}}
	for _, n := range []int{1, 3, 4} {
		var sum int64
		for _, seg := range segments(n) {
			for sec := range 8 {
				got, open := offeredIn(p, seg, sec)
				if !open {
					t.Fatal("an arrival-rate scenario reads as closed")
				}
				if sec == 0 && got != 0 {
					t.Errorf("%d agents: %d offered before the scenario's start", n, got)
				}
				sum += got
			}
		}
		if sum != 70 {
			t.Errorf("%d agents: the per-second offered counts add up to %d, want the schedule's 70", n, sum)
		}
	}
}

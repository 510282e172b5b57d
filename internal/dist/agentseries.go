package dist

import (
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// agentSeries returns one agent's figures for second sec, from the
// snapshot it sent and the CPU and waits for a CPU it reported with it
// (NaN: not measured), as the per-agent series of diagnose (AgentIterations, ...).
func agentSeries(p *plan.Plan, a *agentState, sec int, s *metrics.Snapshot, cpu float64, st stall) series.Set {
	labels := []series.Label{{Name: diagnose.AgentLabel, Value: a.name + " " + a.addr},
		{Name: "role", Value: "generator"}, {Name: "target", Value: diagnose.AgentsTarget}}
	series.SortLabels(labels)
	point := func(name string, v float64) *series.Series {
		return &series.Series{Name: name, Labels: labels, Kind: series.Gauge, Points: []series.Point{{Sec: sec, Value: v}}}
	}
	var requests, errs, iterations, dropped int64
	var lag time.Duration
	for i := range s.Endpoints {
		e := &s.Endpoints[i]
		requests += e.Requests
		for k := range e.Failures {
			if sample.Kind(k) != sample.OK {
				errs += e.Failures[k]
			}
		}
	}
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		iterations += sc.Iterations
		dropped += sc.Dropped
		if sc.Lag != nil && sc.Lag.Count() > 0 {
			lag = max(lag, sc.Lag.Quantile(99))
		}
	}
	set := series.Set{
		point(diagnose.AgentIterations, float64(iterations)),
		point(diagnose.AgentRequests, float64(requests)),
		point(diagnose.AgentErrors, float64(errs)),
		point(diagnose.AgentDropped, float64(dropped)),
		point(diagnose.AgentLag, lag.Seconds()),
	}
	if n, open := offeredIn(p, a.seg, sec); open {
		set = append(set, point(diagnose.AgentOffered, float64(n)))
	}
	if !math.IsNaN(st.p99) {
		set = append(set, point(diagnose.AgentStall, st.p99))
	}
	if !math.IsNaN(cpu) {
		set = append(set, point(diagnose.AgentCPU, cpu))
		if a.who.CPUs > 0 {
			set = append(set, point(diagnose.AgentCPUShare, cpu/float64(a.who.CPUs)))
		}
	}
	return set
}

// offeredIn counts the arrivals the open-model scenarios plan for seg in
// second sec of the run, by the schedule's arithmetic.
func offeredIn(p *plan.Plan, seg plan.Segment, sec int) (n int64, open bool) {
	return plannedBetween(p, seg, time.Duration(sec)*time.Second, time.Duration(sec+1)*time.Second)
}

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
		if a.who.cores() > 0 {
			set = append(set, point(diagnose.AgentCPUShare, cpu/a.who.cores()))
		}
	}
	return set
}

// offeredIn counts the arrivals the open-model scenarios plan for seg in
// second sec of the run, by the schedule's arithmetic.
func offeredIn(p *plan.Plan, seg plan.Segment, sec int) (n int64, open bool) {
	return plannedBetween(p, seg, time.Duration(sec)*time.Second, time.Duration(sec+1)*time.Second)
}

// maxHostLabel bounds the host name an agent's host series carry: the
// welcome's, which an agent says and a label repeats every second.
const maxHostLabel = 64

// agentHostSeries returns the CPU of an agent's host in second sec, as it
// reported it (diagnose.AgentHostCPU and AgentHostCPUs, labelled with its
// host's name): none when it did not (h.cpus 0, an agent of an older build).
func agentHostSeries(a *agentState, sec int, h hostCPU) series.Set {
	if h.cpus <= 0 {
		return nil
	}
	labels := []series.Label{{Name: diagnose.AgentLabel, Value: a.name + " " + a.addr}, {Name: diagnose.AgentHostLabel, Value: clip(a.who.Host, maxHostLabel)},
		{Name: "role", Value: "generator"}, {Name: "target", Value: diagnose.AgentsTarget}}
	series.SortLabels(labels)
	point := func(name string, v float64) *series.Series {
		return &series.Series{Name: name, Labels: labels, Kind: series.Gauge, Points: []series.Point{{Sec: sec, Value: v}}}
	}
	return series.Set{point(diagnose.AgentHostCPU, h.busy), point(diagnose.AgentHostCPUs, float64(h.cpus))}
}

// agentQuotaSeries returns the CPU quota that held an agent's own process
// in second sec and its throttling, as it reported them, under the
// generator's quota names with the agent's labels: none when no quota held
// it (q.cores 0).
func agentQuotaSeries(a *agentState, sec int, q quotaReading) series.Set {
	if q.cores <= 0 {
		return nil
	}
	labels := []series.Label{{Name: diagnose.AgentLabel, Value: a.name + " " + a.addr},
		{Name: "role", Value: "generator"}, {Name: "target", Value: diagnose.AgentsTarget}}
	series.SortLabels(labels)
	point := func(name string, kind series.Kind, v float64) *series.Series {
		return &series.Series{Name: name, Labels: labels, Kind: kind, Points: []series.Point{{Sec: sec, Value: v}}}
	}
	set := series.Set{point(diagnose.GeneratorQuota, series.Gauge, q.cores)}
	if q.periods > 0 { // a first reading has no rates
		set = append(set, point(diagnose.GeneratorPeriods, series.Rate, q.periods), point(diagnose.GeneratorThrottled, series.Rate, q.throttled),
			point(diagnose.GeneratorThrottledSec, series.Rate, q.held))
	}
	return set
}

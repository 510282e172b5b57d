package dist

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/units"
)

// TestAgentQuota: two fake agents in pods with 1.5-core CPU limits
// (GOMAXPROCS 2) send 10 seconds to the coordinator's reader, agent 2
// using 1.4 cores and throttled in 60% of its periods from second 3 on,
// agent 1 at 0.3 cores, never throttled. The busiest agent's capacity is
// its quota, not its GOMAXPROCS; its quota and throttling are recorded
// under its labels; and generator-bound names its container's throttling.
func TestAgentQuota(t *testing.T) {
	layout := sample.Layout{Endpoints: []sample.EndpointInfo{{Name: "GET /"}}, Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "arrival-rate"}}}
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 100, MaxVUs: 10, Stages: []plan.Stage{{Duration: 10 * time.Second, Target: 100}}}
	p := &plan.Plan{Layout: layout, Scenarios: []*plan.Scenario{{Name: "s", Load: load}}}
	g := newGenerator(p, []*remote{{name: "agent 1", addr: "10.0.0.5:6565", who: welcome{Host: "pod-1", CPUs: 2, Cores: 1.5}},
		{name: "agent 2", addr: "10.0.0.6:6565", who: welcome{Host: "pod-2", CPUs: 2, Cores: 1.5}}}, time.Second)
	g.start = time.Now().Add(-time.Hour)
	recs := []*metrics.Recorder{metrics.NewRecorder(layout, 1), metrics.NewRecorder(layout, 1)}
	run, set := metrics.NewRun(layout), series.Set{}
	for sec := range 10 {
		for i, a := range g.agents {
			sink, base := recs[i].Sink(0), time.Duration(sec)*time.Second
			for n := range 50 {
				end := base + time.Duration(n)*20*time.Millisecond
				sink.Request(&sample.Request{End: end, Duration: 10 * time.Millisecond, Status: 200})
				sink.Iteration(0, end, 10*time.Millisecond)
				sink.Lag(0, end, time.Millisecond)
			}
			b, err := recs[i].Collect(sec).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			h := secondHead{sec: sec, cpu: 0.3, cpuWall: 1, stall: math.NaN(), wait: math.NaN(), quota: quotaReading{cores: 1.5, periods: 10}}
			if i == 1 {
				h.cpu = 1.4
				if sec >= 3 {
					h.quota.throttled, h.quota.held = 6, 0.3
				}
			}
			if why := g.takeSecond(a, secondFrame(h, b)); why != "" {
				t.Fatalf("%s %s", a.name, why)
			}
		}
		run.Add(g.Second(sec))
		if cpu, capacity, ok := g.Busiest(sec); !ok || cpu != 1.4 || capacity != 1.5 {
			t.Errorf("second %d: the busiest agent used %v of %v cores (%v), want 1.4 of its 1.5-core quota", sec, cpu, capacity, ok)
		}
		set = joinPoints(set, g.AgentSeries(sec))
	}
	thr := set.Find(diagnose.GeneratorThrottled, diagnose.AgentLabel, "agent 2 10.0.0.6:6565")
	if len(thr) != 1 || len(thr[0].Points) != 10 || thr[0].Points[5].Value != 6 {
		t.Fatalf("agent 2's throttled periods: %v", thr)
	}
	var titles []string
	found := false
	for _, f := range diagnose.Diagnose(diagnose.Input{Run: run, Series: set}) {
		ti := diagnose.Join(f.Parts, f.Figures, func(f diagnose.Figure) string { return units.Of(f.Value, f.Unit.String()) })
		titles = append(titles, f.Kind+": "+ti)
		found = found || f.Kind == diagnose.KindGeneratorBound && strings.Contains(ti, "agent 2 10.0.0.6:6565's own container was throttled in 60% of periods at its quota of 1.5 cores")
	}
	if !found {
		t.Errorf("no generator-bound finding naming agent 2's quota; findings:\n%s", strings.Join(titles, "\n"))
	}
}

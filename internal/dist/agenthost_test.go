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

// hostRun is two fake agents on other machines sending 10 seconds of 50
// requests of 10 ms each to the coordinator's reader (takeSecond), agent
// 2 late by 80 ms from second 3 on and agent 1 on time, each with the
// host CPU host(agent, sec) gives (hostCPUs 0: an older agent's second,
// without it). It returns the run, the agents' series as the coordinator
// recorded them and why an agent was lost ("" if none).
func hostRun(t *testing.T, host func(agent, sec int) (busy float64, cpus int)) (*metrics.Run, series.Set, string) {
	t.Helper()
	layout := sample.Layout{Endpoints: []sample.EndpointInfo{{Name: "GET /"}}, Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "arrival-rate"}}}
	load := plan.Load{Model: plan.ArrivalRate, StartRate: 100, MaxVUs: 10, Stages: []plan.Stage{{Duration: 10 * time.Second, Target: 100}}}
	p := &plan.Plan{Layout: layout, Scenarios: []*plan.Scenario{{Name: "s", Load: load}}}
	g := newGenerator(p, []*remote{{name: "agent 1", addr: "10.0.0.5:6565", who: welcome{Host: "build-1", CPUs: 2}},
		{name: "agent 2", addr: "10.0.0.6:6565", who: welcome{Host: "build-2", CPUs: 2}}}, time.Second)
	g.start = time.Now().Add(-time.Hour)
	recs := []*metrics.Recorder{metrics.NewRecorder(layout, 1), metrics.NewRecorder(layout, 1)}
	run, set := metrics.NewRun(layout), series.Set{}
	for sec := range 10 {
		for i, a := range g.agents {
			sink, base := recs[i].Sink(0), time.Duration(sec)*time.Second
			lag := time.Millisecond
			if i == 1 && sec >= 3 {
				lag = 80 * time.Millisecond
			}
			for n := range 50 {
				end := base + time.Duration(n)*20*time.Millisecond
				sink.Request(&sample.Request{End: end, Duration: 10 * time.Millisecond, Status: 200})
				sink.Iteration(0, end, 10*time.Millisecond)
				sink.Lag(0, end, lag)
			}
			b, err := recs[i].Collect(sec).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			h := secondHead{sec: sec, cpu: 0.3, cpuWall: 1, stall: math.NaN(), wait: math.NaN()}
			h.hostBusy, h.hostCPUs = host(i, sec)
			if why := g.takeSecond(a, secondFrame(h, b)); why != "" {
				return run, set, a.name + " " + why
			}
		}
		run.Add(g.Second(sec))
		set = joinPoints(set, g.AgentSeries(sec))
	}
	return run, set, ""
}

// joinPoints adds each series of one second to the series of the same
// key in set, as run.db gives them back.
func joinPoints(set, second series.Set) series.Set {
	for _, s := range second {
		if same := set.Find(s.Name, labelPairs(s)...); len(same) == 1 && len(same[0].Labels) == len(s.Labels) {
			same[0].Points = append(same[0].Points, s.Points...)
			continue
		}
		set = append(set, s)
	}
	return set
}

func labelPairs(s *series.Series) []string {
	var kv []string
	for _, l := range s.Labels {
		kv = append(kv, l.Name, l.Value)
	}
	return kv
}

// TestAgentHostCPUReachesTheDiagnosis: an agent that sends its host's CPU
// has it recorded under its name and host, and a busy host beside its
// lag is named in the finding; an agent of an older build, which sends
// none, is taken as before, with no host reading and no host finding.
func TestAgentHostCPUReachesTheDiagnosis(t *testing.T) {
	for _, tc := range []struct {
		name string
		host func(agent, sec int) (float64, int)
		want string // in the host-busy finding's title; "": none
	}{
		{"agent 2's host busy", func(agent, sec int) (float64, int) { return []float64{0.4, 1.9}[agent], 2 },
			"agent 2 10.0.0.6:6565 (host build-2): its host was 1.9 of 2 cores busy while loadlens used 0.3 cores"},
		{"older agents send no host CPU", func(int, int) (float64, int) { return 0, 0 }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, set, lost := hostRun(t, tc.host)
			if lost != "" {
				t.Fatalf("a fake agent was lost: %s", lost)
			}
			secs := 0
			for _, h := range set.Find(diagnose.AgentHostCPU, diagnose.AgentLabel, "agent 2 10.0.0.6:6565", diagnose.AgentHostLabel, "build-2") {
				secs += len(h.Points)
			}
			if sent := tc.want != ""; (secs == 10) != sent || !sent && len(set.Find(diagnose.AgentHostCPU)) != 0 {
				t.Fatalf("%d seconds of agent 2's host CPU recorded, want 10 if it sent them, none if not", secs)
			}
			fs := diagnose.Diagnose(diagnose.Input{Run: run, Series: set})
			var got []string
			for _, f := range fs {
				if f.Kind == diagnose.KindHostBusy {
					got = append(got, diagnose.Join(f.Parts, f.Figures, func(f diagnose.Figure) string { return units.Of(f.Value, f.Unit.String()) }))
				}
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("a host-busy finding without any host reading: %q", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("host-busy findings %q, want one with %q", got, tc.want)
			}
		})
	}
}

// TestAgentHostCPUImpossibleIsRefused: a host CPU no /proc/stat gives
// (not a number, negative, more cores busy than the host has) ends the
// agent as faulty, as its other impossible figures do.
func TestAgentHostCPUImpossibleIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		busy float64
	}{{"NaN", math.NaN()}, {"negative", -0.5}, {"more cores busy than it has", 2.5}, {"infinite", math.Inf(1)}} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, lost := hostRun(t, func(agent, sec int) (float64, int) {
				if agent == 1 && sec == 4 {
					return tc.busy, 2
				}
				return 0.4, 2
			})
			if !strings.Contains(lost, "agent 2 sent a bad second: its host's CPU: ") || !strings.Contains(lost, "cores busy of its 2, not a reading") {
				t.Errorf("the agent was lost for %q, want its host's CPU refused", lost)
			}
		})
	}
}

package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// agentRun is a 20-second open run on three 1-core agents: each agent's
// CPU share, lag p99 (s) and drops per second from second 8 on (0.3, 1 ms
// and none before), and the busiest agent's CPU as the generator's own
// series, as the coordinator records them.
func agentRun(shares, lags, drops [3]float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		var set series.Set
		busiest := repeat(0.3, 20)
		for i, addr := range []string{"10.0.0.5:6565", "10.0.0.6:6565", "10.0.0.7:6565"} {
			labels := []string{AgentLabel, "agent " + string(rune('1'+i)) + " " + addr, "role", "generator", "target", AgentsTarget}
			share, lag, drop := repeat(0.3, 20), repeat(0.001, 20), repeat(0, 20)
			for s := 8; s < 20; s++ {
				share[s], lag[s], drop[s] = shares[i], lags[i], drops[i]
				busiest[s] = max(busiest[s], shares[i])
			}
			set = append(set, mk(AgentCPUShare, series.Gauge, pts(0, 1, share...), labels...),
				mk(AgentCPU, series.Gauge, pts(0, 1, share...), labels...),
				mk(AgentLag, series.Gauge, pts(0, 1, lag...), labels...),
				mk(AgentDropped, series.Gauge, pts(0, 1, drop...), labels...))
		}
		gen := []string{"role", "generator", "target", "loadlens"}
		set = append(set, mk(GeneratorCPU, series.Gauge, pts(0, 1, busiest...), gen...),
			mk(GeneratorCapacity, series.Gauge, pts(0, 1, repeat(1, 20)...), gen...))
		return Input{Run: build(t, layout(modelArrivalRate, "GET /"), steady(20, 100, 3, 10*time.Millisecond)), Series: set}
	}
}

func TestGeneratorFindingNamesTheWeakAgent(t *testing.T) {
	tests := []struct {
		name      string
		in        func(t *testing.T) Input
		wantAgent string   // "" when the finding must name no agent
		wantWords []string // in the title
	}{
		{"one agent saturated", agentRun([3]float64{0.35, 0.4, 0.98}, [3]float64{0.001, 0.001, 0.041}, [3]float64{0, 0, 100}),
			"agent 3 10.0.0.7:6565", []string{"was saturated: CPU 98", "lag p99 up to 41", "1,200 dropped", "the other agents at most 40"}},
		{"one agent only late", agentRun([3]float64{0.9, 0.3, 0.3}, [3]float64{0.03, 0.001, 0.001}, [3]float64{}),
			"agent 1 10.0.0.5:6565", []string{"was saturated: CPU 90", "the other agents at most 30"}},
		{"the latest agent with its CPU idle, beside one short of CPU", agentRun([3]float64{0.3, 0.9, 0.0066}, [3]float64{0.001, 0.001, 0.041}, [3]float64{}),
			"agent 3 10.0.0.7:6565", []string{"fell behind: lag p99 up to 41.0ms, though its CPU was only 0.66% of its cores (and not it alone)"}},
		{"balanced: every agent saturated", agentRun([3]float64{0.97, 0.96, 0.98}, [3]float64{0.001, 0.001, 0.001}, [3]float64{}), "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gen *Finding
			fs := Diagnose(tt.in(t))
			for i := range fs {
				if fs[i].Kind == KindGeneratorBound {
					gen = &fs[i]
				}
			}
			if gen == nil {
				t.Fatalf("no generator finding among %d", len(fs))
			}
			got := title(*gen)
			t.Log(got)
			if tt.wantAgent == "" {
				if strings.Contains(got, "agent ") {
					t.Errorf("a balanced run names an agent: %s", got)
				}
				return
			}
			if !strings.Contains(got, tt.wantAgent+" was saturated") && !strings.Contains(got, tt.wantAgent+" fell behind") {
				t.Errorf("the finding does not name %s: %s", tt.wantAgent, got)
			}
			for _, a := range []string{"agent 1 ", "agent 2 ", "agent 3 "} {
				if a != tt.wantAgent[:len(a)] && strings.Contains(got, a) {
					t.Errorf("the finding names %q too: %s", a, got)
				}
			}
			for _, w := range tt.wantWords {
				if !strings.Contains(got, w) {
					t.Errorf("title lacks %q: %s", w, got)
				}
			}
			if strings.Contains(got, "saturated") && !strings.Contains(got, "saturated: CPU") {
				t.Errorf("an agent is called saturated for something other than its CPU: %s", got)
			}
		})
	}
}

// TestDistributedHealthyNamesTheBusiestAgent checks that a distributed
// run's healthy note gives the generator CPU as the busiest agent's.
func TestDistributedHealthyNamesTheBusiestAgent(t *testing.T) {
	in := agentRun([3]float64{0.3, 0.45, 0.3}, [3]float64{0.001, 0.001, 0.001}, [3]float64{})(t)
	got := healthyText(in, Diagnose(in))
	if want := "the busiest agent used at most 0.45 of its 1 core (45%)"; !strings.Contains(got, want) {
		t.Errorf("Healthy = %q, want %q", got, want)
	}
}

package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// agentHostRun lags 80 ms from 5 s to 15 s beside a 12 ms p95 on two
// 2-core agents on other machines, each using 0.3 cores; late[i] says
// whether agent i's own lag was 80 ms then (else 1 ms), and hostBusy[i]
// is the cores busy on its host as it reported them (< 0: it reported
// none, an agent of an older build). local, when >= 0, is this host's
// busy cores as the coordinator read them (its agents on this host).
func agentHostRun(late [2]bool, hostBusy [2]float64, local float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(20, 100, 3, 10*time.Millisecond)
		for s := 5; s <= 15; s++ {
			secs[s].lag = 80 * time.Millisecond
		}
		set := generatorSeries(repeat(0.3, 20)...)
		for i, addr := range []string{"10.0.0.5:6565", "10.0.0.6:6565"} {
			agent := "agent " + string(rune('1'+i)) + " " + addr
			labels := []string{AgentLabel, agent, "role", "generator", "target", AgentsTarget}
			lag := repeat(0.001, 20)
			for s := 5; s <= 15 && late[i]; s++ {
				lag[s] = 0.08
			}
			set = append(set, mk(AgentCPU, series.Gauge, pts(0, 1, repeat(0.3, 20)...), labels...),
				mk(AgentCPUShare, series.Gauge, pts(0, 1, repeat(0.15, 20)...), labels...),
				mk(AgentLag, series.Gauge, pts(0, 1, lag...), labels...))
			if hostBusy[i] >= 0 {
				host := append(labels, AgentHostLabel, "build-"+string(rune('1'+i)))
				set = append(set, mk(AgentHostCPU, series.Gauge, pts(0, 1, repeat(hostBusy[i], 20)...), host...),
					mk(AgentHostCPUs, series.Gauge, pts(0, 1, repeat(2, 20)...), host...))
			}
		}
		if local >= 0 {
			labels := []string{"role", "generator", "target", "loadlens"}
			set = append(set, mk(HostCPU, series.Gauge, pts(0, 1, repeat(local, 20)...), labels...),
				mk(HostCPUs, series.Gauge, pts(0, 1, repeat(2, 20)...), labels...))
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs), Series: set}
	}
}

// TestAgentHostBusyNamesTheAgent: an agent on another machine whose host
// was busy while it lagged is named, by the host CPU it sent; agents that
// sent none (older builds) leave the lag with the generator; a busy host
// beside an agent on time blames nothing on it; and agents on this host
// are judged by this host's CPU alone.
func TestAgentHostBusyNamesTheAgent(t *testing.T) {
	tests := []struct {
		name  string
		in    func(t *testing.T) Input
		want  []string // in the host-busy title; nil: no such finding
		never string   // not in it
	}{
		{"agent 2's host busy while it lagged", agentHostRun([2]bool{false, true}, [2]float64{0.4, 1.9}, -1),
			[]string{"agent 2 10.0.0.6:6565 (host build-2): its host was 1.9 of 2 cores busy while loadlens used 0.3 cores"}, "agent 1"},
		{"old agents sent no host CPU", agentHostRun([2]bool{true, true}, [2]float64{-1, -1}, -1), nil, ""},
		{"a busy host beside an agent on time", agentHostRun([2]bool{false, true}, [2]float64{1.9, 0.4}, -1), nil, ""},
		{"agents on this host: its CPU, once", agentHostRun([2]bool{true, true}, [2]float64{1.9, 1.9}, 1.94),
			[]string{"it was busy with other processes, 97"}, "agent "},
		{"agents on this host, quiet: their own reading does not count twice", agentHostRun([2]bool{true, true}, [2]float64{1.9, 1.9}, 0.4), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Diagnose(tt.in(t))
			f, found := findKind(fs, KindHostBusy)
			if tt.want == nil {
				if found {
					t.Fatalf("unexpected host-busy finding: %s", title(f))
				}
				if _, gen := findKind(fs, KindGeneratorBound); !gen {
					t.Errorf("the lag is in no generator finding: %s", titles(fs))
				}
				return
			}
			if !found {
				t.Fatalf("no host-busy finding among: %s", titles(fs))
			}
			got := title(f)
			t.Log(got)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the title lacks %q: %s", w, got)
				}
			}
			if tt.never != "" && strings.Contains(got, tt.never) {
				t.Errorf("the title has %q: %s", tt.never, got)
			}
		})
	}
}

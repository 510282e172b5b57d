package app

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/report"
)

func TestAgentsRoundTripThroughRunDBMeta(t *testing.T) {
	tests := []struct {
		name   string
		agents []report.Agent
	}{
		{"none", nil},
		{"open model, one lost", []report.Agent{
			{Name: "agent 1", Addr: "10.0.0.7:6565", Segment: "0:1/2", Offset: -3 * time.Microsecond, RTT: time.Millisecond, Offered: 25, Achieved: 24.5,
				Requests: 98, Errors: 2, Dropped: 1, CPU: 0.4, CPUMax: 0.9, LagP99: 41 * time.Millisecond, Seconds: 4, Missing: []int{2}, LostAt: -1},
			{Name: "agent 2", Addr: "10.0.0.8:6565", Segment: "1/2:1", Offered: 25, Achieved: 10, Requests: 20, CPU: 0.1, LostAt: 2, LostWhy: "gone", LostPlan: 50},
		}},
		{"closed model, CPU unknown", []report.Agent{{Name: "agent 1", Addr: "h:1", Offered: math.NaN(), CPU: math.NaN(), LostAt: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeAgents(encodeAgents(tt.agents))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.agents) {
				t.Fatalf("%d agents back, want %d", len(got), len(tt.agents))
			}
			for i := range got {
				w, g := tt.agents[i], got[i]
				if math.IsNaN(w.Offered) != math.IsNaN(g.Offered) || math.IsNaN(w.CPU) != math.IsNaN(g.CPU) {
					t.Errorf("agent %d: unknown figures changed: offered %v → %v, CPU %v → %v", i, w.Offered, g.Offered, w.CPU, g.CPU)
				}
				w.Offered, w.CPU, g.Offered, g.CPU = 0, 0, 0, 0 // NaN ≠ NaN: compared above
				if !reflect.DeepEqual(w, g) {
					t.Errorf("agent %d:\n got %+v\nwant %+v", i, g, w)
				}
			}
		})
	}
}

package compare

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/stats"
)

// TestAGateOnDriftingRunsIsNotJudged: two runs of a service still warming
// up (each ends at a third of the latency it started with, as a fresh
// JVM's did) and a 1.5× slower one: a p95 past the limit whose interval
// reaches back within it is not passed as "not significantly past" but
// not judged, naming the drift; steady runs are never said to drift.
func TestAGateOnDriftingRunsIsNotJudged(t *testing.T) {
	hold := make([]float64, 40)
	for i := range hold {
		hold[i] = 50
	}
	tests := []struct {
		name        string
		drift       float64
		wantDrift   bool
		notJudged   bool
		reasonParts []string
	}{
		{"warming up", -0.7, true, true, []string{"not judged", "the runs drifted", "warm the service up"}},
		{"steady", 0, false, false, []string{"p95"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := synth{seed: 11, model: "arrival-rate", load: hold, drift: tc.drift, innov: 0.2}.input("a")
			slower := synth{seed: 12, model: "arrival-rate", load: hold, drift: tc.drift, innov: 0.2, slow: 1.5}.input("b")
			r, err := Compare([]Input{base, slower}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := line(t, r, allEndpoints, P95).Values[1]
			if (v.Drift > 10) != tc.wantDrift {
				t.Fatalf("drift %.1f%%, want drift %v", v.Drift, tc.wantDrift)
			}
			g, err := ParseGate("p(95) +10%")
			if err != nil {
				t.Fatal(err)
			}
			res := r.Check([]Gate{g})
			if len(res) != 1 {
				t.Fatalf("results %+v", res)
			}
			if tc.notJudged && !res[0].NotJudged {
				t.Errorf("drifting runs judged: failed=%v: %s", res[0].Failed, res[0].Reason)
			}
			// Steady runs may be too noisy to judge (their 1.5× slower p95 read
			// +29.8% [-4.9%, +108%], once passed), never for a drift.
			if !tc.notJudged && res[0].NotJudged && strings.Contains(res[0].Reason, "drifted") {
				t.Errorf("steady runs not judged for a drift: %s", res[0].Reason)
			}
			for _, want := range tc.reasonParts {
				if res[0].NotJudged && !strings.Contains(res[0].Reason, want) {
					t.Errorf("reason %q lacks %q", res[0].Reason, want)
				}
			}
		})
	}
}

// TestKendallTau checks the trend statistic on known orders.
func TestKendallTau(t *testing.T) {
	for _, tc := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, 1},
		{[]float64{4, 3, 2, 1}, -1},
		{[]float64{1, 3, 2, 4}, 4.0 / 6},
		{[]float64{2, 2, 2}, 0},
	} {
		if got := stats.TrendTau(tc.x); got != tc.want {
			t.Errorf("tau%v = %v, want %v", tc.x, got, tc.want)
		}
	}
}

package history

import (
	"math"
	"testing"
)

// Runs whose own diagnosis found the generator or its host limited them
// are no level: a busy host's p95 of 2 s in the first runs made a 3×
// slower target read as "better" from the first quiet run. Tables and
// charts still show their figures (Shown); change points (Values) leave
// them out.
func TestDisturbedRunsAreNoLevel(t *testing.T) {
	for _, tc := range []struct {
		name    string
		disturb bool
		changes int
	}{
		{"the busy host's runs marked", true, 0},
		{"the same runs unmarked", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []Run
			for i := range 5 {
				r := runOf("shop", "50/s", i, 2000+float64(10*i)) // the generator's wait in every latency
				if tc.disturb {
					r.Disturbed = "generator-host-busy"
				}
				runs = append(runs, r)
			}
			for i := 5; i < 10; i++ {
				runs = append(runs, runOf("shop", "50/s", i, 300+float64(10*(i%2))))
			}
			s := Group(runs, DefaultMethod)[0].Current()
			var p95 []Change
			for _, c := range s.Changes {
				if c.Figure == P95 {
					p95 = append(p95, c)
				}
			}
			if len(p95) != tc.changes {
				t.Fatalf("p95 change points %+v, want %d", p95, tc.changes)
			}
			values, shown := s.Values("GET /", P95), s.Shown("GET /", P95)
			if math.IsNaN(shown[0]) || math.IsNaN(values[0]) != tc.disturb || math.IsNaN(values[9]) {
				t.Errorf("first run: value %v, shown %v; last: value %v", values[0], shown[0], values[9])
			}
		})
	}
}

package metrics

import (
	"testing"
	"time"
)

// TestCovered checks which share of each second a run lasted: only a last
// second the run's end cut short covers less than all of it.
func TestCovered(t *testing.T) {
	tests := []struct {
		name    string
		elapsed time.Duration // 0: not set, one second per snapshot
		want    []float64     // Covered(0..2), then out of range
	}{
		{"elapsed not set", 0, []float64{1, 1, 1}},
		{"ends on a whole second", 3 * time.Second, []float64{1, 1, 1}},
		{"last second 0.3 s long", 2300 * time.Millisecond, []float64{1, 1, 0.3}},
		{"last second a millisecond long", 2001 * time.Millisecond, []float64{1, 1, 0.001}},
		{"recorded end before the last second", 2 * time.Second, []float64{1, 1, 1}},
		{"recorded end past the last second", 5 * time.Second, []float64{1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := threeSeconds()
			run.SetElapsed(tt.elapsed)
			for i, want := range tt.want {
				if got := run.Covered(i); !near(got, want) {
					t.Errorf("Covered(%d) = %v, want %v", i, got, want)
				}
			}
			for _, i := range []int{-1, 3} {
				if got := run.Covered(i); got != 1 {
					t.Errorf("Covered(%d) (no such second) = %v, want 1", i, got)
				}
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

package compare

import "testing"

func TestAtLeastJudgesFallsOnLogs(t *testing.T) {
	tests := []struct {
		name       string
		m          Metric
		point, min float64
		want       bool
	}{
		{"a rise past the floor", P95, 30, 20, true},
		{"a rise within it", P95, 10, 20, false},
		{"a fall to a thousandth past a floor above 100%", P95, -99.92, 515, true},
		{"a fall to a sixth within a +515% floor", P95, -83, 515, false},
		{"a fall to a fifth past a +300% floor", P95, -80, 300, true},
		{"halving against a +100% floor is on it", P50, -50, 100, true},
		{"a small fall within a small floor", TPS, -4, 5, false},
		{"a fall as far on logs as a rise past a +59% floor", P95, -37.2, 59, true},
		{"a fall short of that on logs", P95, -36, 59, false},
		{"a fall of 4.8% is as far as a rise of 5%", P50, -4.8, 5, true},
		{"a ratio metric compares points", ErrorRate, -0.02, 0.01, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := atLeast(tt.m, tt.point, tt.min); got != tt.want {
				t.Fatalf("atLeast(%v, %v, %v) = %v, want %v", tt.m, tt.point, tt.min, got, tt.want)
			}
		})
	}
}

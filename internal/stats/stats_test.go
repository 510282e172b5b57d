package stats

import (
	"math"
	"testing"
)

func TestMedianAndMean(t *testing.T) {
	for _, tc := range []struct {
		xs           []float64
		median, mean float64
	}{
		{nil, 0, 0},
		{[]float64{5}, 5, 5},
		{[]float64{3, 1, 2}, 2, 2},
		{[]float64{4, 1, 3, 2}, 2.5, 2.5},
		{[]float64{1, 1, 1, 100}, 1, 25.75},
	} {
		in := append([]float64(nil), tc.xs...)
		if got := Median(tc.xs); got != tc.median {
			t.Errorf("Median(%v) = %v, want %v", tc.xs, got, tc.median)
		}
		if got := Mean(tc.xs); got != tc.mean {
			t.Errorf("Mean(%v) = %v, want %v", tc.xs, got, tc.mean)
		}
		for i := range in {
			if in[i] != tc.xs[i] {
				t.Errorf("Median reordered its input: %v, was %v", tc.xs, in)
			}
		}
	}
}

func TestKendallTau(t *testing.T) {
	up := []float64{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name   string
		xs, ys []float64
		want   float64
	}{
		{"rising together", up, []float64{10, 20, 30, 40, 50}, 1},
		{"opposite", up, []float64{5, 4, 3, 2, 1}, -1},
		{"flat", up, []float64{7, 7, 7, 7, 7}, 0},
		{"one swap of ten pairs", up, []float64{1, 3, 2, 4, 5}, 0.8},
		{"too short", []float64{1}, []float64{1}, 0},
		{"unequal lengths use the shorter", up, []float64{3, 2}, -1},
	} {
		if got := KendallTau(tc.xs, tc.ys); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: KendallTau = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := TrendTau([]float64{1, 3, 2, 4, 5}); math.Abs(got-0.8) > 1e-12 {
		t.Errorf("TrendTau = %v, want 0.8", got)
	}
}

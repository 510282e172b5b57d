// Package stats holds the few summary statistics that several verdicts share
// (compare's gates, diagnose's trends, history's change points), so each is
// written, tested and fixed once.
package stats

import "sort"

// Median is the middle value of xs (the mean of the two middle values when
// their count is even), 0 for none; xs is not reordered.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Mean is the arithmetic mean of xs, 0 for none.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, v := range xs {
		s += v
	}
	return s / float64(len(xs))
}

// KendallTau is Kendall's rank correlation (tau-a, −1..1) of the pairs
// (xs[i], ys[i]): +1 when every pair of points rises together, −1 when every
// pair moves opposite ways, near 0 without a monotone relation. Ties count
// for neither side, so a flat series scores 0. O(n²): callers bound n.
func KendallTau(xs, ys []float64) float64 {
	n := min(len(xs), len(ys))
	if n < 2 {
		return 0
	}
	var concordant, discordant int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			switch s := (xs[j] - xs[i]) * (ys[j] - ys[i]); {
			case s > 0:
				concordant++
			case s < 0:
				discordant++
			}
		}
	}
	return float64(concordant-discordant) / float64(n*(n-1)/2)
}

// TrendTau is KendallTau of ys against their index: how steadily the series
// rises (+1) or falls (−1) over time.
func TrendTau(ys []float64) float64 {
	idx := make([]float64, len(ys))
	for i := range idx {
		idx[i] = float64(i)
	}
	return KendallTau(idx, ys)
}

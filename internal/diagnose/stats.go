package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/stats"
)

// maxTrendPoints bounds the O(n²) trend statistics: longer series are first
// reduced to the medians of consecutive buckets.
const maxTrendPoints = 240

// smooth returns the moving median of xs over windows of 2·half+1 values
// (shorter at the edges): it removes one-second spikes, such as a GC pause
// on the generator's machine, and keeps steps and trends.
func smooth(xs []float64, half int) []float64 {
	out := make([]float64, len(xs))
	for i := range xs {
		lo, hi := max(i-half, 0), min(i+half+1, len(xs))
		out[i] = stats.Median(xs[lo:hi])
	}
	return out
}

// bucketMedians reduces (x, y) pairs to at most limit pairs, each the
// medians of a run of consecutive pairs.
func bucketMedians(xs, ys []float64, limit int) ([]float64, []float64) {
	if len(xs) <= limit {
		return xs, ys
	}
	size := int(math.Ceil(float64(len(xs)) / float64(limit)))
	var bx, by []float64
	for lo := 0; lo < len(xs); lo += size {
		hi := min(lo+size, len(xs))
		bx = append(bx, stats.Median(xs[lo:hi]))
		by = append(by, stats.Median(ys[lo:hi]))
	}
	return bx, by
}

// theilSen returns the Theil–Sen estimate of y = a + b·x: the median of the
// slopes between all pairs of points, which up to 29 % of outliers cannot
// move, and the intercept as the median of y − b·x.
func theilSen(xs, ys []float64) (a, b float64) {
	xs, ys = bucketMedians(xs, ys, maxTrendPoints)
	var slopes []float64
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if dx := xs[j] - xs[i]; dx != 0 {
				slopes = append(slopes, (ys[j]-ys[i])/dx)
			}
		}
	}
	b = stats.Median(slopes)
	rest := make([]float64, len(xs))
	for i := range xs {
		rest[i] = ys[i] - b*xs[i]
	}
	return stats.Median(rest), b
}

// kendallTau is Kendall's rank correlation of the pairs (−1..1), over at most
// maxTrendPoints bucket medians so a long run costs no more than a short one.
func kendallTau(xs, ys []float64) float64 {
	xs, ys = bucketMedians(xs, ys, maxTrendPoints)
	return stats.KendallTau(xs, ys)
}

// span is a run of consecutive samples, by index into the samples.
type span struct{ first, last int }

// longestRun returns the first longest run of consecutive indexes 0..n−1
// for which ok holds, and whether there is one.
func longestRun(n int, ok func(i int) bool) (span, bool) {
	best, cur := span{-1, -2}, span{-1, -2}
	for i := 0; i < n; i++ {
		if !ok(i) {
			cur = span{-1, -2}
			continue
		}
		if cur.first < 0 {
			cur = span{i, i}
		} else {
			cur.last = i
		}
		if cur.last-cur.first > best.last-best.first {
			best = cur
		}
	}
	return best, best.first >= 0
}

// firstRun returns the first run of at least minLen consecutive indexes for
// which ok holds, extended as far as ok keeps holding.
func firstRun(n, minLen int, ok func(i int) bool) (span, bool) {
	start := -1
	for i := 0; i <= n; i++ {
		if i < n && ok(i) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minLen {
			return span{start, i - 1}, true
		}
		start = -1
	}
	return span{}, false
}

// firstCluster returns the first span of at least minCount seconds for
// which ok holds within any window of that many indices, not necessarily
// in a row: from the first of them to the last within its window.
func firstCluster(n, minCount, window int, ok func(i int) bool) (span, bool) {
	for i := 0; i < n; i++ {
		if !ok(i) {
			continue
		}
		count, last := 0, i
		for j := i; j < min(n, i+window); j++ {
			if ok(j) {
				count, last = count+1, j
			}
		}
		if count >= minCount {
			return span{i, last}, true
		}
	}
	return span{}, false
}

// peakIndex returns the index of the highest point in points[first..last].
func peakIndex(points []series.Point, first, last int) int {
	peak := first
	for i := first; i <= last; i++ {
		if points[i].Value > points[peak].Value {
			peak = i
		}
	}
	return peak
}

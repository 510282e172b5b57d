package compare

import (
	"math"
	"math/rand/v2"
)

// defaultResamples is how many bootstrap resamples a comparison draws; the
// 2.5 % and 97.5 % points of 1,000 are stable to a few tenths of the
// interval's width.
const defaultResamples = 1000

// resampled is one row of one run with its bootstrap distribution.
type resampled struct {
	full    [numMetrics]float64    // every figure over all the compared seconds (on the grid)
	halves  [2][numMetrics]float64 // over the first and the second half
	reps    [][numMetrics]float64  // one per resample
	block   int                    // block length in seconds
	inflate float64                // the variance inflation of the block length's bias
	seconds int
}

// resample draws b circular block bootstrap resamples of a row's seconds:
// each resample is ⌈n/L⌉ blocks of L consecutive seconds, starting at
// uniformly random seconds and wrapping from the last second to the
// first, cut to n seconds. The seed makes the output reproducible.
func resample(rs *rowSeconds, b int, seed uint64) *resampled {
	n := len(rs.secs)
	L, inflate := rs.blockLength()
	out := &resampled{seconds: n, block: L, inflate: inflate}
	acc := make([]int64, rs.hi-rs.lo+1)
	secs := rs.packSeconds()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	out.full = rs.stats(secs, all, acc)
	out.halves[0] = rs.stats(secs, all[:n/2], acc)
	out.halves[1] = rs.stats(secs, all[n/2:], acc)
	// Each resample is n/L whole blocks, summed once each, and the first
	// n mod L seconds of one more.
	blk := secs
	if L > 1 {
		blk = rs.packBlocks(L)
	}
	whole, rest := n/L, n%L
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out.reps = make([][numMetrics]float64, b)
	for r := range out.reps {
		clear(acc)
		var t sums
		for range whole {
			blk.add(rng.IntN(n), acc, &t)
		}
		start := rng.IntN(n)
		for k := range rest {
			secs.add((start+k)%n, acc, &t)
		}
		out.reps[r] = rs.figures(t, n, acc)
	}
	return out
}

// quantileSorted returns the p-quantile (0..1) of sorted x, interpolating
// between order statistics (type 7, as R and NumPy do by default).
func quantileSorted(x []float64, p float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	h := p * float64(len(x)-1)
	lo := int(math.Floor(h))
	if lo >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
}

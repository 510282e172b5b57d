package compare

import (
	"math"
	"sort"
)

// minSamples is the fewest per-second samples a run needs for a test: with
// fewer, the normal approximation of Mann-Whitney's U is not trustworthy
// and no p-value is reported.
const minSamples = 5

// MannWhitney returns the two-sided p-value of the Mann-Whitney U test that
// a and b come from the same distribution, by the normal approximation with
// tie and continuity corrections. It makes no assumption about the shape of
// the distribution, which suits latencies. ok is false when either sample
// has fewer than 5 values. Samples with no variation at all (every value
// tied) give p = 1.
func MannWhitney(a, b []float64) (p float64, ok bool) {
	n1, n2 := len(a), len(b)
	if n1 < minSamples || n2 < minSamples {
		return 0, false
	}
	type obs struct {
		v     float64
		fromA bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	n := float64(n1 + n2)
	var rankA, ties float64
	for i := 0; i < len(all); {
		j := i
		for j+1 < len(all) && all[j+1].v == all[i].v {
			j++
		}
		rank := float64(i+j)/2 + 1 // the mean of ranks i+1 .. j+1
		for k := i; k <= j; k++ {
			if all[k].fromA {
				rankA += rank
			}
		}
		t := float64(j - i + 1)
		ties += t*t*t - t
		i = j + 1
	}
	u := rankA - float64(n1)*float64(n1+1)/2
	mean := float64(n1) * float64(n2) / 2
	variance := float64(n1) * float64(n2) / 12 * ((n + 1) - ties/(n*(n-1)))
	if variance <= 0 {
		return 1, true
	}
	z := math.Max(math.Abs(u-mean)-0.5, 0) / math.Sqrt(variance)
	return math.Min(1, math.Erfc(z/math.Sqrt2)), true
}

// TwoProportions returns the two-sided p-value of the z-test that two
// ratios, okA of nA and okB of nB, are equal. It is used for checks, whose
// outcomes are counted per run rather than per second. ok is false when
// either count is 0.
func TwoProportions(okA, nA, okB, nB int64) (p float64, ok bool) {
	if nA <= 0 || nB <= 0 {
		return 0, false
	}
	pa, pb := float64(okA)/float64(nA), float64(okB)/float64(nB)
	pooled := float64(okA+okB) / float64(nA+nB)
	se := math.Sqrt(pooled * (1 - pooled) * (1/float64(nA) + 1/float64(nB)))
	if se == 0 {
		return 1, true
	}
	z := math.Abs(pa-pb) / se
	return math.Min(1, math.Erfc(z/math.Sqrt2)), true
}

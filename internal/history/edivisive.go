package history

import "math"

// EDivisive returns E-Divisive means' best split of xs (Matteson & James
// 2014, with α = 1): the τ that maximises
//
//	q(τ) = m·n/(m+n) · (2/(m·n)·Σ|x−y| − 1/C(m,2)·Σ|x−x'| − 1/C(n,2)·Σ|y−y'|)
//
// over the m = τ values before and n values after it, each side at least
// minSize long; −1 when xs is too short. It keeps running sums of the
// within-side distances, so a segment of n values costs O(n²).
func EDivisive(xs []float64, minSize int) int {
	n := len(xs)
	minSize = max(minSize, 2) // a side of one value has no within-side distance
	if n < 2*minSize {
		return -1
	}
	// rowRight[i] = Σ_{j>i} |x_i − x_j|: the right side loses it as i moves left.
	var total, right float64
	rowRight := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			rowRight[i] += math.Abs(xs[i] - xs[j])
		}
		total += rowRight[i]
	}
	right = total
	var left float64
	best, bestQ := -1, math.Inf(-1)
	for tau := 1; tau <= n-minSize; tau++ {
		// moving x_{tau-1} from the right side to the left one
		v := xs[tau-1]
		for i := 0; i < tau-1; i++ {
			left += math.Abs(xs[i] - v)
		}
		right -= rowRight[tau-1]
		if tau < minSize {
			continue
		}
		m, k := float64(tau), float64(n-tau)
		cross := total - left - right
		e := 2*cross/(m*k) - left/(m*(m-1)/2) - right/(k*(k-1)/2)
		if q := m * k / (m + k) * e; q > bestQ {
			best, bestQ = tau, q
		}
	}
	return best
}

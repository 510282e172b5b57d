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

// EDivisiveBump returns E-Divisive means' best split with its right side
// ending early (Matteson & James's κ): the τ and κ that maximise q over
// the values [0, τ) against [τ, κ), each side at least minSize long and κ
// before the end (at the end it is EDivisive's split); −1, −1 when none.
// A level that returns (a regression and its fix) mixes both levels into
// every right side that runs to the end, so only a κ finds its first edge.
// O(n²): for each κ, each τ's cross sum grows by the new value's distances
// to the left side, read from the running prefix sums of those distances.
func EDivisiveBump(xs []float64, minSize int) (tau, kappa int) {
	n := len(xs)
	minSize = max(minSize, 2)
	if n < 2*minSize+1 {
		return -1, -1
	}
	within := make([]float64, n+1) // within[t] = Σ_{i<j<t} |x_i − x_j|
	for t := 1; t <= n; t++ {
		within[t] = within[t-1]
		for i := 0; i < t-1; i++ {
			within[t] += math.Abs(xs[i] - xs[t-1])
		}
	}
	cross := make([]float64, n) // cross[τ] = Σ_{i<τ≤j<κ} |x_i − x_j| for the current κ
	toLeft := make([]float64, n+1)
	tau, kappa = -1, -1
	best := math.Inf(-1)
	for k := 1; k < n; k++ { // κ = k: the values [τ, k) are the right side
		v := xs[k-1]
		for i := 0; i < k-1; i++ { // toLeft[τ] = Σ_{i<τ} |x_i − v|
			toLeft[i+1] = toLeft[i] + math.Abs(xs[i]-v)
		}
		for t := 1; t < k; t++ {
			cross[t] += toLeft[t]
		}
		for t := minSize; k-t >= minSize; t++ {
			m, r := float64(t), float64(k-t)
			right := within[k] - within[t] - cross[t]
			e := 2*cross[t]/(m*r) - within[t]/(m*(m-1)/2) - right/(r*(r-1)/2)
			if q := m * r / (m + r) * e; q > best {
				tau, kappa, best = t, k, q
			}
		}
	}
	return tau, kappa
}

package compare

import (
	"math"

	"github.com/loadlens/loadlens/internal/stats"
)

// BlockLength returns the block length, in seconds, for a circular block
// bootstrap of the mean of x, by the rule of Politis and White (2004, with
// the correction of Patton, Politis and White 2009): b = (2·G²/D)^(1/3)·n^(1/3)
// with G = Σ λ(k/M)·|k|·R(k) and D = 4/3·(Σ λ(k/M)·R(k))², R the sample
// autocovariance, λ the flat-top window and M twice the first lag after
// which K_n autocorrelations in a row are insignificant. Seconds that
// depend on their neighbours get longer blocks; independent ones get 1.
// The result lies in [1, min(3√n, n/3)].
func BlockLength(x []float64) int {
	b, _ := blockLength(x)
	return b
}

// blockLength returns BlockLength and the bias constant c = G/σ² of the
// series (σ² = Σ λ(k/M)·R(k), the long-run variance): a circular block
// bootstrap with blocks of L seconds estimates the variance of the mean
// as σ²·(1 − c/L) to first order, too small when the seconds depend on each
// other over more than L.
func blockLength(x []float64) (int, float64) {
	n := len(x)
	if n < 6 {
		return 1, 0
	}
	bMax := math.Ceil(min(3*math.Sqrt(float64(n)), float64(n)/3))
	kn := max(5, int(math.Ceil(math.Sqrt(math.Log10(float64(n))))))
	mMax := int(math.Ceil(math.Sqrt(float64(n)))) + kn
	mMax = min(mMax, n-1)
	m := stats.Mean(x)
	eps := make([]float64, n)
	for i, v := range x {
		eps[i] = v - m
	}
	acv := make([]float64, mMax+1)
	for k := 0; k <= mMax; k++ {
		var s float64
		for i := k; i < n; i++ {
			s += eps[i] * eps[i-k]
		}
		acv[k] = s / float64(n)
	}
	if acv[0] <= 0 {
		return 1, 0 // a constant series: nothing to resample
	}
	// The first m after which kn autocorrelations in a row stay below the
	// critical value 2·√(log10(n)/n).
	cv := 2 * math.Sqrt(math.Log10(float64(n))/float64(n))
	bigM := mMax
	for first := 0; first+kn <= mMax; first++ {
		quiet := true
		for k := first + 1; k <= first+kn; k++ {
			if math.Abs(acv[k]/acv[0]) >= cv {
				quiet = false
				break
			}
		}
		if quiet {
			bigM = min(2*max(first, 1), mMax)
			break
		}
	}
	g, lr := 0.0, acv[0]
	for k := 1; k <= bigM; k++ {
		t := float64(k) / float64(bigM)
		lambda := 1.0
		if t > 0.5 {
			lambda = 2 * (1 - t)
		}
		g += 2 * lambda * float64(k) * acv[k]
		lr += 2 * lambda * acv[k]
	}
	if lr <= 0 {
		return 1, 0
	}
	d := 4.0 / 3.0 * lr * lr
	b := math.Cbrt(2*g*g/d) * math.Cbrt(float64(n))
	return int(math.Max(1, math.Min(math.Ceil(b), bMax))), g / lr
}

package history

import (
	"math"
	"math/rand/v2"
)

// Synthetic is a kind of synthetic series of runs with a known change, as
// bench/history measures the method on and its tests check it with: stable
// runs, then a step or a drift, with log-normal noise and outliers.
type Synthetic struct {
	Pre     int     // stable runs before the change
	Post    int     // runs after it
	Step    float64 // relative step at run Pre (0.10 = +10 %); 0 none
	Drift   float64 // relative change spread evenly over the Post runs instead of a step
	Sigma   float64 // the noise: the standard deviation of the log of a run's figure
	Outlier float64 // the chance a run is an outlier (×1.3 to ×2: a noisy neighbour)
}

// Series draws one series around 100 (the unit does not matter: the method
// judges ratios).
func (s Synthetic) Series(r *rand.Rand) []float64 { return s.Test(r, 1)[0] }

// Test draws k series of one test's runs (its endpoints' figures): each
// with noise of its own, and an outlier run slowing all of them at once,
// as a noisy neighbour slows the whole run.
func (s Synthetic) Test(r *rand.Rand, k int) [][]float64 {
	n := s.Pre + s.Post
	out := make([][]float64, k)
	for j := range out {
		out[j] = make([]float64, n)
	}
	for i := range n {
		level := 0.0
		if i >= s.Pre {
			level = math.Log1p(s.Step)
			if s.Drift != 0 {
				level = math.Log1p(s.Drift) * float64(i-s.Pre+1) / float64(s.Post)
			}
		}
		slow := 0.0
		if r.Float64() < s.Outlier {
			slow = math.Log(1.3 + 0.7*r.Float64())
		}
		for j := range out {
			out[j][i] = 100 * math.Exp(level+slow+s.Sigma*r.NormFloat64())
		}
	}
	return out
}

package main

import (
	"math"
	"math/rand/v2"
)

// Shape is a synthetic series' kind: what happens after its stable runs.
type Shape struct {
	Pre     int     // stable runs before the change
	Post    int     // runs after it
	Step    float64 // relative step at run Pre (0.10 = +10 %); 0 none
	Drift   float64 // relative change spread evenly over the Post runs instead of a step
	Sigma   float64 // the noise: the standard deviation of the log of a run's figure
	Outlier float64 // the chance a run is an outlier (×1.3 to ×2: a noisy neighbour)
}

// series draws one series of a shape around 100 (the unit does not matter:
// the method judges ratios).
func (s Shape) series(r *rand.Rand) []float64 {
	n := s.Pre + s.Post
	xs := make([]float64, n)
	for i := range xs {
		level := 0.0
		if i >= s.Pre {
			level = math.Log1p(s.Step)
			if s.Drift != 0 {
				level = math.Log1p(s.Drift) * float64(i-s.Pre+1) / float64(s.Post)
			}
		}
		x := level + s.Sigma*r.NormFloat64()
		if r.Float64() < s.Outlier {
			x += math.Log(1.3 + 0.7*r.Float64())
		}
		xs[i] = 100 * math.Exp(x)
	}
	return xs
}

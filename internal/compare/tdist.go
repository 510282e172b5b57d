package compare

import "math"

// StudentTQuantile returns the p-quantile (0 < p < 1) of Student's t
// distribution with df degrees of freedom (df may be fractional, as
// Welch's is), by bisection on the distribution function.
func StudentTQuantile(p, df float64) float64 {
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -StudentTQuantile(1-p, df)
	}
	lo, hi := 0.0, 1.0
	for studentTCDF(hi, df) < p && hi < 1e12 { // bounded: hi doubles up to 1e12
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if studentTCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-12*max(1, hi) {
			break
		}
	}
	return (lo + hi) / 2
}

// studentTCDF is P(T ≤ t) for Student's t with df degrees of freedom:
// 1 − ½·I_{df/(df+t²)}(df/2, ½) for t ≥ 0.
func studentTCDF(t, df float64) float64 {
	tail := 0.5 * regIncBeta(df/2, 0.5, df/(df+t*t))
	if t >= 0 {
		return 1 - tail
	}
	return tail
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by the
// continued fraction of Numerical Recipes (modified Lentz).
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaFraction(b, a, 1-x)/b
	}
	return front * betaFraction(a, b, x) / a
}

// betaFraction evaluates the continued fraction of the incomplete beta.
func betaFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		for _, step := range []float64{num, -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))} {
			d = 1 + step*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + step/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < 1e-15 {
			break
		}
	}
	return h
}

package capacity

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// USLFit is Gunther's Universal Scalability Law fitted to (concurrency,
// throughput) points: X(N) = λN / (1 + σ(N−1) + κN(N−1)), X in requests
// per second and N in requests in flight. σ is contention
// (the serial part: queues, locks), κ coherency (crosstalk that makes
// throughput fall past a peak).
type USLFit struct {
	Lambda          float64 // throughput of one request in flight, req/s
	Sigma           float64 // contention, 0..1
	Kappa           float64 // coherency, ≥ 0
	PeakConcurrency float64 // where throughput peaks; +Inf when κ = 0
	PeakThroughput  float64 // the peak, or the asymptote λ/σ when κ = 0 (+Inf when σ = 0 too), req/s
	R2              float64 // of throughput, 1 for a perfect fit
	Points          int     // steps the fit used
	// PeakInReach says the peak lies within USLReach × the measured range
	// (concurrency for a peak, throughput for an asymptote); farther out
	// it is an extrapolation the steps do not support, and is not shown.
	PeakInReach bool
}

// USLReach is how far past the measured range a peak is still shown:
// its concurrency (or, without one, its throughput) at most this many
// times the highest measured.
const USLReach = 2

// Throughput is the fitted throughput at concurrency n.
func (f USLFit) Throughput(n float64) float64 {
	return f.Lambda * n / (1 + f.Sigma*(n-1) + f.Kappa*n*(n-1))
}

// The criterion for showing a USL fit: it must rest on enough clean
// passing steps and explain them. Steps that failed the SLO are left out:
// past the capacity of an open-model test the queue grows through the
// hold, which is no steady state of the kind the USL describes.
const (
	uslMinPoints = 4   // distinct passed rates with clean measurements
	uslMinR2     = 0.9 // of throughput against concurrency
)

// fitSteps fits the USL to the clean passing steps and returns it only when
// it explains them and every clean step within the error budget maxErr,
// passed or not: a curve that never reaches a throughput a step measured
// is no ceiling. Otherwise nil and why, in words. The fit is in the unit
// a step completes (unit: requests, calls, sessions): throughput per second
// against how many are in flight.
func fitSteps(steps []Record, maxErr float64, unit units.Unit) (*USLFit, string) {
	var n, x []float64
	rates := map[float64]bool{}
	for _, s := range steps {
		if s.Clean() && s.Passed && s.Concurrency > 0 && s.Throughput > 0 {
			n, x = append(n, s.Concurrency), append(x, s.Throughput)
			rates[s.Rate] = true
		}
	}
	if len(rates) < uslMinPoints {
		return nil, fmt.Sprintf("too few points for a scalability fit: %s at distinct rates with clean measurements, %d needed",
			units.CountOf(int64(len(rates)), "passed step", "passed steps"), uslMinPoints)
	}
	f, err := FitUSL(n, x)
	if err != nil {
		return nil, "the USL does not fit these points: " + strings.TrimPrefix(err.Error(), "capacity: ")
	}
	if why := f.implausible(); why != "" {
		return nil, fmt.Sprintf("the USL does not fit these points (%s)", why)
	}
	if best, ok := bestMeasured(steps, maxErr); ok && f.PeakThroughput < best.Throughput {
		return nil, fmt.Sprintf("the USL does not fit these points: its curve never reaches the %s measured at %s (R² %s over %s)",
			unit.Rate(best.Throughput), Iterations(best.Rate), units.Number(f.R2), units.CountOf(int64(f.Points), "step", "steps"))
	}
	if ceil, behind, ok := behindCeiling(steps); ok && f.PeakThroughput > uslOverCeiling*ceil {
		return nil, fmt.Sprintf("the USL does not fit these points: its peak %s is more than 10%% above the %s the steps completed at most, and the target fell behind at %s (%s done)",
			unit.Rate(f.PeakThroughput), unit.Rate(ceil), Iterations(behind.Rate), unit.Rate(behind.Throughput))
	}
	maxN, maxX := 0.0, 0.0
	for i := range n {
		maxN, maxX = max(maxN, n[i]), max(maxX, x[i])
	}
	if math.IsInf(f.PeakConcurrency, 1) {
		f.PeakInReach = f.PeakThroughput <= USLReach*maxX
	} else {
		f.PeakInReach = f.PeakConcurrency <= USLReach*maxN
	}
	return &f, ""
}

// A step fell behind when it was offered at least behindShare more
// iterations than it completed; a peak more than uslOverCeiling above every
// clean step's throughput is then one the target, driven past its limit,
// never showed. Trial A6: a 2-slot × 20 ms service completed 97.1 and
// 97.9 req/s at 112 and 103/s offered, and the fit said "peak 111 req/s".
const (
	behindShare    = 1.05
	uslOverCeiling = 1.1
)

// behindCeiling returns the highest throughput of any clean step, and
// the clean step that fell behind (behindShare) at the lowest rate, when
// one did; ok is false otherwise (the steps never reached the target's
// limit, and a peak past them may be in reach).
func behindCeiling(steps []Record) (ceil float64, behind StepResult, ok bool) {
	for _, s := range steps {
		if !s.Clean() {
			continue
		}
		ceil = max(ceil, s.Throughput)
		if s.Offered > 0 && s.Completed > 0 && float64(s.Offered) >= behindShare*float64(s.Completed) && (!ok || s.Rate < behind.Rate) {
			behind, ok = s.StepResult, true
		}
	}
	return ceil, behind, ok && ceil > 0
}

// bestMeasured is the clean step, within the error budget, that completed
// the most per second (requests, calls, sessions); ok is false when there is none.
func bestMeasured(steps []Record, maxErr float64) (best StepResult, ok bool) {
	for _, s := range steps {
		if s.Clean() && s.ErrorRate <= maxErr && s.Throughput > best.Throughput {
			best, ok = s.StepResult, true
		}
	}
	return best, ok
}

// implausible says why a fit does not explain its data, or "": its
// parameters must mean something physically (λ > 0, 0 ≤ σ ≤ 1, κ ≥ 0) and
// it must explain at least uslMinR2 of the throughput's variance.
func (f USLFit) implausible() string {
	switch {
	case !(f.Lambda > 0) || math.IsInf(f.Lambda, 0):
		return "λ = " + units.Number(f.Lambda) + " is not a positive throughput"
	case !(f.Sigma >= 0 && f.Sigma <= 1):
		return "σ = " + units.Number(f.Sigma) + " is outside 0…1"
	case !(f.Kappa >= 0):
		return "κ = " + units.Number(f.Kappa) + " is negative"
	case !(f.R2 >= uslMinR2):
		return "R² " + units.Number(f.R2) + ", below " + units.Number(uslMinR2)
	}
	return ""
}

// FitUSL fits the Universal Scalability Law to throughput x at concurrency
// n by least squares: first linearly on N/X = (1 + σ(N−1) + κN(N−1))/λ,
// then refined by Levenberg-Marquardt on the throughput itself, with σ and
// κ kept at 0 or above. It needs at least four points at three or more
// distinct concurrencies.
func FitUSL(n, x []float64) (USLFit, error) {
	if len(n) != len(x) {
		return USLFit{}, fmt.Errorf("capacity: %d concurrencies but %d throughputs", len(n), len(x))
	}
	distinct := map[float64]bool{}
	for i := range n {
		if n[i] <= 0 || x[i] <= 0 || math.IsNaN(n[i]) || math.IsNaN(x[i]) || math.IsInf(n[i], 0) || math.IsInf(x[i], 0) {
			return USLFit{}, fmt.Errorf("capacity: point %d (N=%v, X=%v) is not positive", i, n[i], x[i])
		}
		distinct[n[i]] = true
	}
	if len(n) < 4 || len(distinct) < 3 {
		return USLFit{}, errors.New("capacity: a USL fit needs at least 4 points at 3 concurrencies")
	}
	p, ok := linearUSL(n, x)
	if !ok {
		return USLFit{}, errors.New("capacity: the points do not determine a USL fit")
	}
	p = refineUSL(n, x, p)
	f := USLFit{Lambda: p[0], Sigma: p[1], Kappa: p[2], Points: len(n)}
	f.R2 = rSquared(n, x, f)
	switch {
	case f.Kappa > 0 && f.Sigma < 1:
		f.PeakConcurrency = math.Sqrt((1 - f.Sigma) / f.Kappa)
		f.PeakThroughput = f.Throughput(f.PeakConcurrency)
	case f.Sigma > 0:
		f.PeakConcurrency, f.PeakThroughput = math.Inf(1), f.Lambda/f.Sigma
	default:
		f.PeakConcurrency, f.PeakThroughput = math.Inf(1), math.Inf(1)
	}
	return f, nil
}

// linearUSL solves the linearised fit N/X = a + b(N−1) + cN(N−1) and
// returns (λ, σ, κ) = (1/a, b/a, c/a) with negative coefficients set to 0.
func linearUSL(n, x []float64) ([3]float64, bool) {
	var ata [3][3]float64
	var aty [3]float64
	for i := range n {
		row := [3]float64{1, n[i] - 1, n[i] * (n[i] - 1)}
		y := n[i] / x[i]
		for r := range 3 {
			aty[r] += row[r] * y
			for c := range 3 {
				ata[r][c] += row[r] * row[c]
			}
		}
	}
	sol, ok := solve3(ata, aty)
	if !ok || sol[0] <= 0 {
		return [3]float64{}, false
	}
	return [3]float64{1 / sol[0], max(0, sol[1]/sol[0]), max(0, sol[2]/sol[0])}, true
}

// refineUSL minimises the squared throughput error by Levenberg-Marquardt
// from p, in a bounded number of iterations.
func refineUSL(n, x []float64, p [3]float64) [3]float64 {
	sse := func(q [3]float64) float64 {
		f := USLFit{Lambda: q[0], Sigma: q[1], Kappa: q[2]}
		var s float64
		for i := range n {
			d := x[i] - f.Throughput(n[i])
			s += d * d
		}
		return s
	}
	cur, mu := sse(p), 1e-3
	for iter := 0; iter < 200 && cur > 0; iter++ {
		var jtj [3][3]float64
		var jtr [3]float64
		for i := range n {
			d := 1 + p[1]*(n[i]-1) + p[2]*n[i]*(n[i]-1)
			fi := p[0] * n[i] / d
			g := [3]float64{n[i] / d, -fi * (n[i] - 1) / d, -fi * n[i] * (n[i] - 1) / d}
			r := x[i] - fi
			for a := range 3 {
				jtr[a] += g[a] * r
				for b := range 3 {
					jtj[a][b] += g[a] * g[b]
				}
			}
		}
		for a := range 3 {
			jtj[a][a] *= 1 + mu
		}
		delta, ok := solve3(jtj, jtr)
		if !ok {
			break
		}
		next := [3]float64{p[0] + delta[0], max(0, p[1]+delta[1]), max(0, p[2]+delta[2])}
		if next[0] <= 0 {
			mu *= 10
			continue
		}
		if s := sse(next); s < cur {
			improved := (cur - s) / cur
			p, cur, mu = next, s, mu/10
			if improved < 1e-12 {
				break
			}
		} else {
			mu *= 10
			if mu > 1e12 {
				break
			}
		}
	}
	return p
}

// rSquared is the coefficient of determination of the fit's throughput.
func rSquared(n, x []float64, f USLFit) float64 {
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var res, tot float64
	for i := range n {
		d := x[i] - f.Throughput(n[i])
		res += d * d
		tot += (x[i] - mean) * (x[i] - mean)
	}
	if tot == 0 {
		return 1
	}
	return 1 - res/tot
}

// solve3 solves a 3×3 linear system by Gaussian elimination with partial
// pivoting; false when it is singular.
func solve3(a [3][3]float64, b [3]float64) ([3]float64, bool) {
	var scale float64
	for r := range 3 {
		for c := range 3 {
			scale = max(scale, math.Abs(a[r][c]))
		}
	}
	for col := range 3 {
		pivot := col
		for r := col + 1; r < 3; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		if math.Abs(a[pivot][col]) <= 1e-14*scale {
			return [3]float64{}, false
		}
		a[col], a[pivot] = a[pivot], a[col]
		b[col], b[pivot] = b[pivot], b[col]
		for r := col + 1; r < 3; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c < 3; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	var x [3]float64
	for r := 2; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < 3; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}

// MarshalJSON writes the fit with null for an infinite peak, which JSON
// cannot express as a number.
func (f USLFit) MarshalJSON() ([]byte, error) {
	finite := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	return json.Marshal(uslJSON{f.Lambda, f.Sigma, f.Kappa, finite(f.PeakConcurrency), finite(f.PeakThroughput), f.R2, f.Points, f.PeakInReach})
}

// uslJSON is USLFit as capacity.json holds it.
type uslJSON struct {
	Lambda, Sigma, Kappa            float64
	PeakConcurrency, PeakThroughput *float64
	R2                              float64
	Points                          int
	PeakInReach                     bool
}

// UnmarshalJSON reads what MarshalJSON wrote, null peaks as +Inf.
func (f *USLFit) UnmarshalJSON(b []byte) error {
	var j uslJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	inf := func(v *float64) float64 {
		if v == nil {
			return math.Inf(1)
		}
		return *v
	}
	*f = USLFit{Lambda: j.Lambda, Sigma: j.Sigma, Kappa: j.Kappa, PeakConcurrency: inf(j.PeakConcurrency),
		PeakThroughput: inf(j.PeakThroughput), R2: j.R2, Points: j.Points, PeakInReach: j.PeakInReach}
	return nil
}

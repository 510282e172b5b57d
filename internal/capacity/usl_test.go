package capacity

import (
	"encoding/json"
	"github.com/loadlens/loadlens/internal/units"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestFitUSLRecoversParameters(t *testing.T) {
	// Exact data must come back to rounding; noisy data within what the
	// noise allows: λ within 5 %, σ within 0.01, κ within 20 %.
	exact := [3]float64{1e-6, 1e-6, 1e-8}
	tests := []struct {
		name                string
		lambda, sigma, kapp float64
		noise               float64    // relative, uniform ±
		tol                 [3]float64 // λ relative, σ and κ absolute
	}{
		{"exact, retrograde", 100, 0.05, 0.0005, 0, exact},
		{"exact, contention only", 50, 0.2, 0, 0, exact},
		{"exact, linear", 10, 0, 0, 0, exact},
		{"2% noise", 100, 0.05, 0.0005, 0.02, [3]float64{0.05, 0.01, 0.0001}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			truth := USLFit{Lambda: tc.lambda, Sigma: tc.sigma, Kappa: tc.kapp}
			rng := rand.New(rand.NewPCG(1, 2))
			var n, x []float64
			for _, c := range []float64{1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128} {
				n = append(n, c)
				x = append(x, truth.Throughput(c)*(1+tc.noise*(2*rng.Float64()-1)))
			}
			f, err := FitUSL(n, x)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(f.Lambda-tc.lambda) > tc.tol[0]*tc.lambda || math.Abs(f.Sigma-tc.sigma) > tc.tol[1] ||
				math.Abs(f.Kappa-tc.kapp) > tc.tol[2] {
				t.Fatalf("fit λ=%v σ=%v κ=%v, want λ=%v σ=%v κ=%v", f.Lambda, f.Sigma, f.Kappa, tc.lambda, tc.sigma, tc.kapp)
			}
			if tc.kapp > 0 {
				wantN := math.Sqrt((1 - tc.sigma) / tc.kapp)
				if math.Abs(f.PeakConcurrency-wantN) > 0.1*wantN || math.Abs(f.PeakThroughput-truth.Throughput(wantN)) > 0.05*truth.Throughput(wantN) {
					t.Errorf("peak %v at N=%v, want %v at N=%v", f.PeakThroughput, f.PeakConcurrency, truth.Throughput(wantN), wantN)
				}
			} else if !math.IsInf(f.PeakConcurrency, 1) {
				t.Errorf("peak at N=%v, want none (κ = 0)", f.PeakConcurrency)
			}
			if f.R2 < 0.95 {
				t.Errorf("R² = %v", f.R2)
			}
		})
	}
}

func TestFitUSLRejectsTooLittleData(t *testing.T) {
	tests := []struct {
		name string
		n, x []float64
		want string
	}{
		{"three points", []float64{1, 2, 3}, []float64{1, 2, 3}, "at least 4 points"},
		{"two concurrencies", []float64{1, 1, 2, 2}, []float64{1, 1, 2, 2}, "3 concurrencies"},
		{"zero throughput", []float64{1, 2, 3, 4}, []float64{1, 0, 3, 4}, "not positive"},
		{"lengths differ", []float64{1, 2}, []float64{1}, "2 concurrencies but 1 throughputs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitUSL(tc.n, tc.x)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestUSLFitJSONWritesNullForAnInfinitePeak(t *testing.T) {
	in := USLFit{Lambda: 2, Sigma: 0.02, PeakConcurrency: math.Inf(1), PeakThroughput: 100, R2: 0.99, Points: 4, PeakInReach: true}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); !strings.Contains(got, `"PeakConcurrency":null`) || !strings.Contains(got, `"PeakThroughput":100`) {
		t.Fatalf("JSON %s", got)
	}
	// capacity.json read back (estimate --from-run, a report rebuilt) keeps the infinite peak.
	var out USLFit
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Fatalf("read back %+v, want %+v", out, in)
	}
}

// TestUSLShownOnlyWhenItExplainsTheData: a fit is shown only on at least
// four clean passing steps, with λ > 0, 0 ≤ σ ≤ 1, κ ≥ 0 and R² ≥ 0.9;
// otherwise the output says why, and never prints a peak.
func TestUSLShownOnlyWhenItExplainsTheData(t *testing.T) {
	truth := USLFit{Lambda: 100, Sigma: 0.05, Kappa: 0.002}
	steps := func(ns []float64, xs []float64, passed int) []Record {
		var out []Record
		for i, n := range ns {
			x := truth.Throughput(n)
			if xs != nil {
				x = xs[i]
			}
			out = append(out, Record{StepResult: StepResult{Rate: x, Throughput: x, Concurrency: n, Passed: i < passed}, Attempt: 1})
		}
		return out
	}
	onUSL := []float64{1, 2, 4, 8, 12, 16}
	busy := steps(onUSL[:4], nil, 4)
	busy[1].Busy = "the generator's scheduling lag p99 reached 300ms (limit 100ms)"
	tests := []struct {
		name  string
		steps []Record
		shown bool
		note  string
	}{
		{"six passed steps on the curve", steps(onUSL, nil, 6), true, ""},
		{"three passed, three failed", steps(onUSL, nil, 3), false, "too few points for a scalability fit: 3 passed steps at distinct rates with clean measurements, 4 needed"},
		{"a busy step is left out", busy, false, "too few points for a scalability fit: 3 passed steps"},
		// Throughput that jumps about with concurrency is no USL curve.
		{"scattered", steps([]float64{1, 2, 3, 4, 5, 6}, []float64{100, 20, 180, 40, 150, 10}, 6), false, "the USL does not fit these points (R² "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, note := fitSteps(tc.steps, 0.01, units.Unit{})
			if (f != nil) != tc.shown || !strings.Contains(note, tc.note) || (tc.shown && note != "") {
				t.Fatalf("fit %+v, note %q; want shown=%v, note %q", f, note, tc.shown, tc.note)
			}
			if f != nil && (f.R2 < uslMinR2 || math.Abs(f.Sigma-truth.Sigma) > 0.01 || math.Abs(f.Kappa-truth.Kappa) > 0.0005) {
				t.Errorf("fit %+v, want about %+v", *f, truth)
			}
			golden(t, "usl-"+strings.ReplaceAll(tc.name, " ", "-"), Result{Steps: tc.steps, USL: f, USLNote: note, Stop: Converged}) // report renders it
		})
	}
}

// TestUSLNeverACeilingBelowAMeasuredThroughput: the search read
// "USL ceiling 2,144/s" beside a step that had completed 2,306 req/s. A fit
// on the passed steps whose curve never reaches what a clean step measured
// (here a failing one past the boundary) is not shown, and the note says why.
func TestUSLNeverACeilingBelowAMeasuredThroughput(t *testing.T) {
	truth := USLFit{Lambda: 100, Sigma: 0.05} // κ = 0: approaches 2,000 req/s
	var steps []Record
	for i, n := range []float64{1, 4, 8, 16} {
		x := truth.Throughput(n)
		steps = append(steps, Record{StepResult: StepResult{Rate: float64(100 * (i + 1)), Throughput: x, Concurrency: n, Passed: true}, Attempt: 1})
	}
	over := Record{StepResult: StepResult{Rate: 1153, Throughput: 2306, Concurrency: 60}, Attempt: 1, Judged: true}
	tests := []struct {
		name  string
		steps []Record
		shown bool
		note  string
	}{
		{"the passed steps alone", steps, true, ""},
		{"a failing step measured past its ceiling", append(slices.Clone(steps), over), false,
			"the USL does not fit these points: its curve never reaches the 2,306 req/s measured at 1,153 iterations/s (R² 1 over 4 steps)"},
		// A step whose requests failed past the budget completed errors, not throughput.
		{"past the error budget it does not count", append(slices.Clone(steps), func() Record { r := over; r.ErrorRate = 0.5; return r }()), true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, note := fitSteps(tc.steps, 0.01, units.Unit{})
			if (f != nil) != tc.shown || note != tc.note {
				t.Fatalf("fit %+v, note %q; want shown=%v, note %q", f, note, tc.shown, tc.note)
			}
			if f != nil && f.PeakThroughput < 1999 {
				t.Fatalf("ceiling %v, want about 2,000", f.PeakThroughput)
			}
		})
	}
}

// TestUSLImplausibleParameters: parameters without a physical meaning are
// named, even when R² is high.
func TestUSLImplausibleParameters(t *testing.T) {
	tests := []struct {
		f    USLFit
		want string
	}{
		{USLFit{Lambda: 0, R2: 1}, "λ = 0 is not a positive throughput"},
		{USLFit{Lambda: 1, Sigma: 1.5, R2: 1}, "σ = 1.5 is outside 0…1"},
		{USLFit{Lambda: 1, Kappa: -0.1, R2: 1}, "κ = -0.1 is negative"},
		{USLFit{Lambda: 1, R2: -36.7}, "R² -36.7, below 0.9"},
		{USLFit{Lambda: 1, Sigma: 0.1, Kappa: 0.01, R2: 0.95}, ""},
	}
	for _, tc := range tests {
		if got := tc.f.implausible(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestUSLPeakOnlyWithinReach: a fit on steps far below the peak explains
// them, but its peak is an extrapolation and is not shown.
func TestUSLPeakOnlyWithinReach(t *testing.T) {
	truth := USLFit{Lambda: 100, Sigma: 0.01, Kappa: 0.0001} // peak at N ≈ 99
	tests := []struct {
		name  string
		ns    []float64
		reach bool
	}{
		{"steps up to the peak", []float64{5, 20, 40, 60, 80, 100}, true},
		{"steps far below the peak", []float64{1, 2, 3, 4, 5}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var steps []Record
			for _, n := range tc.ns {
				x := truth.Throughput(n)
				steps = append(steps, Record{StepResult: StepResult{Rate: x, Throughput: x, Concurrency: n, Passed: true}, Attempt: 1})
			}
			f, note := fitSteps(steps, 0.01, units.Unit{})
			if f == nil {
				t.Fatalf("no fit: %s", note)
			}
			if f.PeakInReach != tc.reach {
				t.Fatalf("peak %v at N=%v in reach: %v, want %v", f.PeakThroughput, f.PeakConcurrency, f.PeakInReach, tc.reach)
			}
			golden(t, "usl-"+strings.ReplaceAll(tc.name, " ", "-"), Result{Steps: steps, USL: f, Stop: Converged}) // report renders it
		})
	}
}

// TestUSLNeverAPeakAboveATargetDrivenPastItsLimit: trial A6's 2-slot ×
// 20 ms service passed 50, 75, 93.8 and 98.4/s, completed 97.1 and
// 97.9 req/s at 112 and 103/s offered, and the fit on the passed steps
// said "peak 111 req/s". When a clean step fell behind, a peak more than
// 10 % above every clean step's throughput is not shown; without such a
// step (the search never reached the limit) it still is.
func TestUSLNeverAPeakAboveATargetDrivenPastItsLimit(t *testing.T) {
	step := func(rate, x, n float64, offered, completed int64, passed bool) Record {
		return Record{StepResult: StepResult{Rate: rate, Throughput: x, Concurrency: n, Passed: passed,
			Offered: offered, Completed: completed}, Attempt: 1, Judged: true}
	}
	passed := []Record{ // the trial's steps (capacity.json): the fit on them peaks at 111 req/s, 3.87 in flight
		step(50, 49.97, 1.052, 1500, 1499, true),
		step(75, 74.97, 1.565, 2250, 2249, true),
		step(93.75, 93.7, 2.021, 2813, 2811, true),
		step(98.44, 98.17, 6.814, 2953, 2945, true),
	}
	behind := []Record{step(112.5, 97.07, 237.1, 3375, 2912, false), step(103.13, 97.93, 79.02, 3094, 2938, false)}
	notBehind := []Record{step(112.5, 97.07, 237.1, 3375, 3300, false)} // completed within 5 % of what it was offered
	busyBehind := behind[1]
	busyBehind.Busy = "the generator's scheduling lag p99 reached 300ms (limit 100ms)"
	tests := []struct {
		name  string
		steps []Record
		shown bool
		note  string
	}{
		{"the passed steps alone", passed, true, ""},
		{"two steps fell behind", append(slices.Clone(passed), behind...), false,
			"the USL does not fit these points: its peak 111 req/s is more than 10% above the 98.2 req/s the steps completed at most, and the target fell behind at 103 iterations/s (97.9 req/s done)"},
		{"a failing step that kept up", append(slices.Clone(passed), notBehind...), true, ""},
		{"a busy step's shortfall is not the target's", append(slices.Clone(passed), busyBehind), true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, note := fitSteps(tc.steps, 0.01, units.Unit{})
			if (f != nil) != tc.shown || note != tc.note {
				t.Fatalf("fit %+v, note %q; want shown=%v, note %q", f, note, tc.shown, tc.note)
			}
		})
	}
}

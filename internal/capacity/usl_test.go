package capacity

import (
	"encoding/json"
	"math"
	"math/rand/v2"
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
	b, err := json.Marshal(USLFit{Lambda: 2, PeakConcurrency: math.Inf(1), PeakThroughput: 100, Points: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); !strings.Contains(got, `"PeakConcurrency":null`) || !strings.Contains(got, `"PeakThroughput":100`) {
		t.Fatalf("JSON %s", got)
	}
}

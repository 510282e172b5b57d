package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlens/loadlens/internal/history"
)

// The claims docs/history.md makes, on fresh seeds: at 2 % noise with 3 %
// of runs outliers, each series one of a test's 10, a 10 % step is found
// within 3 runs of it at least 90 % of the time, and at most 5 % of stable
// tests of 100 runs show a change point (in one series, or in any of its
// 10), and a CI gate over them fails after at most 5 % of the runs.
func TestClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("measures thousands of series")
	}
	m := history.DefaultMethod.Among(testSeries)
	for seed := uint64(10); seed < 12; seed++ {
		r := rand.New(rand.NewPCG(seed, seed))
		step := stepRates(m, history.Synthetic{Pre: preRuns, Post: postRuns, Step: 0.10, Sigma: 0.02, Outlier: outlierRate}, 300, r)
		if step.Found[3] < 0.90 {
			t.Errorf("seed %d: a 10 %% step found within 3 runs in %.1f %% of series, want ≥ 90 %%", seed, 100*step.Found[3])
		}
		a := alarmRates(m, 0.02, outlierRate, stableRuns, testSeries, 200, 20, r)
		for what, s := range map[string]Share{"one series": a.Series, "a test": a.Test} {
			if share := float64(s.Hits) / float64(s.Trials); share > 0.05 {
				t.Errorf("seed %d: %s of 100 stable runs showed a change point in %.1f %% of trials, want ≤ 5 %%", seed, what, 100*share)
			}
		}
		if a.Gate > 0.05 {
			t.Errorf("seed %d: --fail-on-change failed after %.1f %% of stable runs, want ≤ 5 %%", seed, 100*a.Gate)
		}
	}
}

// TestWilsonInterval checks the false-alarm interval against published
// values (Wilson 1927; e.g. 0 of 10: [0, 27.8 %]).
func TestWilsonInterval(t *testing.T) {
	for _, tc := range []struct {
		s      Share
		lo, hi float64
	}{
		{Share{0, 10}, 0, 0.2775},
		{Share{5, 10}, 0.2366, 0.7634},
		{Share{20, 2000}, 0.00649, 0.01539},
	} {
		lo, hi := tc.s.Interval()
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("%d of %d: [%.4f, %.4f], want [%.4f, %.4f]", tc.s.Hits, tc.s.Trials, lo, hi, tc.lo, tc.hi)
		}
	}
}

package history

import (
	"math/rand/v2"
	"testing"
)

// The accuracy docs/history.md claims, on fixed seeds so that the counts
// are the same on every run (bench/history measures them on thousands of
// series): the noise is 2 % (σ of the log) with 3 % of runs outliers, and
// each series is one of the 10 of a test of two endpoints.
const (
	claimSigma   = 0.02
	claimOutlier = 0.03
	claimFamily  = 10
)

// TestFalseAlarmsOnStableRuns fails when more than 5 % of stable series of
// 100 runs, or of tests of 10 such series, show any change point. Before
// the level was shared over the splits and the series (each t-test at
// 0.001), about 20 % of such tests did.
func TestFalseAlarmsOnStableRuns(t *testing.T) {
	const tests = 300
	for _, tc := range []struct {
		name          string
		sigma, outlie float64
		family        int
	}{
		{"a test of 10 series, σ 2 %, outliers", claimSigma, claimOutlier, claimFamily},
		{"a test of 10 series, σ 2 %", claimSigma, 0, claimFamily},
		{"one series alone, σ 10 %, outliers", 0.10, claimOutlier, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(27, 1))
			m := DefaultMethod.Among(tc.family)
			alarmed, series := 0, 0
			for range tests {
				any := false
				for i, xs := range (Synthetic{Pre: 100, Sigma: tc.sigma, Outlier: tc.outlie}).Test(r, tc.family) {
					if len(m.Detect(xs, true)) > 0 {
						any = true
						if i == 0 {
							series++
						}
					}
				}
				if any {
					alarmed++
				}
			}
			t.Logf("%d of %d tests alarmed, %d in their first series", alarmed, tests, series)
			if alarmed > tests/20 {
				t.Errorf("%d of %d stable tests of 100 runs showed a change point (%d in their first series), want ≤ 5 %%", alarmed, tests, series)
			}
		})
	}
}

// TestTenPercentStepFoundWithinThreeRuns fails when a +10 % step after 20
// stable runs is found, at its run ±1, within 3 runs of the new level in
// fewer than 90 % of series, the method running after each run as a
// nightly job would.
func TestTenPercentStepFoundWithinThreeRuns(t *testing.T) {
	const series, pre = 300, 20
	r := rand.New(rand.NewPCG(27, 2))
	m := DefaultMethod.Among(claimFamily)
	found := 0
	for range series {
		xs := Synthetic{Pre: pre, Post: 3, Step: 0.10, Sigma: claimSigma, Outlier: claimOutlier}.Series(r)
		if stepWithin(m, xs, pre) {
			found++
		}
	}
	t.Logf("found within 3 runs in %d of %d series", found, series)
	if found < series*9/10 {
		t.Errorf("a 10 %% step found within 3 runs in %d of %d series, want ≥ 90 %%", found, series)
	}
}

// stepWithin reports whether a rise at run pre is found, ±1 run, after
// one, two or three runs of the new level.
func stepWithin(m Method, xs []float64, pre int) bool {
	for k := pre + 1; k <= len(xs); k++ {
		for _, s := range m.Detect(xs[:k], true) {
			if s.Change > 0 && s.At >= pre-1 && s.At <= pre+1 {
				return true
			}
		}
	}
	return false
}

// TestARegressionAndItsFixStayFound: a regression fixed later is a level
// that returned; once the fix had lasted as long as the regression, the
// split of the whole series mixed both into its right side and neither
// change was shown (0 of 200 such series at 8 runs of each; issue 27's
// recording). Both edges are found in the whole series at 2 % noise, with
// outliers, for a +20 % regression 8 runs long.
func TestARegressionAndItsFixStayFound(t *testing.T) {
	const series, base, bad, fixed = 300, 10, 8, 8
	r := rand.New(rand.NewPCG(27, 3))
	m := DefaultMethod.Among(claimFamily)
	found := 0
	for range series {
		xs := Synthetic{Pre: base, Post: bad, Step: 0.20, Sigma: claimSigma, Outlier: claimOutlier}.Series(r)
		xs = append(xs, Synthetic{Pre: fixed, Sigma: claimSigma, Outlier: claimOutlier}.Series(r)...)
		var up, down bool
		for _, s := range m.Detect(xs, true) {
			up = up || s.Change > 0 && s.At >= base-1 && s.At <= base+1
			down = down || s.Change < 0 && s.At >= base+bad-1 && s.At <= base+bad+1
		}
		if up && down {
			found++
		}
	}
	t.Logf("both edges found in %d of %d series", found, series)
	if found < series*9/10 {
		t.Errorf("a regression and its fix both found in %d of %d series, want ≥ 90 %%", found, series)
	}
}

package main

import (
	"math/rand/v2"

	"github.com/loadlens/loadlens/internal/history"
)

// Rates are a measured detection rate and false-alarm rate.
type Rates struct {
	Trials int
	Found  [4]float64 // the share of steps found (±1 run, the right sign) within 1, 2, 3 runs; [0] unused
	Within float64    // the share found by the end of the series (Post runs)
}

// stepRates measures how soon a step is found: the method runs after each
// new run (as a nightly CI job would), and a step counts as found at the
// first run where a change point of its sign is reported within one run of it.
func stepRates(m history.Method, s Shape, trials int, r *rand.Rand) Rates {
	out := Rates{Trials: trials}
	for range trials {
		xs := s.series(r)
		first := 0
		for k := 1; k <= s.Post; k++ {
			if found(m.Detect(xs[:s.Pre+k], true), s) {
				first = k
				break
			}
		}
		for k := 1; k <= 3; k++ {
			if first > 0 && first <= k {
				out.Found[k]++
			}
		}
		if first > 0 {
			out.Within++
		}
	}
	for k := range out.Found {
		out.Found[k] /= float64(trials)
	}
	out.Within /= float64(trials)
	return out
}

// found reports whether steps hold the shape's change: a step of its sign
// starting within a run of it (a drift: anywhere after its start).
func found(steps []history.Step, s Shape) bool {
	want := s.Step
	if s.Drift != 0 {
		want = s.Drift
	}
	for _, st := range steps {
		if (st.Change > 0) != (want > 0) {
			continue
		}
		if s.Drift != 0 && st.At >= s.Pre || st.At >= s.Pre-1 && st.At <= s.Pre+1 {
			return true
		}
	}
	return false
}

// Alarms are false-alarm rates on stable series.
type Alarms struct {
	Trials int
	Series float64 // the share of stable series of n runs with any change point
	Gate   float64 // the share of runs after which --fail-on-change (newest 5 runs, worse) would fail
}

// alarmRates runs the method on stable series of n runs: once on the whole
// series, and after each run as a CI gate would.
func alarmRates(m history.Method, sigma, outlier float64, n, trials int, r *rand.Rand) Alarms {
	out := Alarms{Trials: trials}
	gates, gated := 0, 0
	for range trials {
		xs := Shape{Pre: n, Sigma: sigma, Outlier: outlier}.series(r)
		if len(m.Detect(xs, true)) > 0 {
			out.Series++
		}
		for k := 2 * m.MinRuns; k <= n; k++ {
			gated++
			for _, st := range m.Detect(xs[:k], true) {
				if st.Change > 0 && st.At >= k-5 {
					gates++
					break
				}
			}
		}
	}
	out.Series /= float64(trials)
	out.Gate = float64(gates) / float64(max(gated, 1))
	return out
}

package main

import (
	"fmt"
	"math"
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
func stepRates(m history.Method, s history.Synthetic, trials int, r *rand.Rand) Rates {
	out := Rates{Trials: trials}
	for range trials {
		xs := s.Series(r)
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
func found(steps []history.Step, s history.Synthetic) bool {
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

// Share is a count of trials out of many, with its 95 % (Wilson) interval.
type Share struct{ Hits, Trials int }

// Interval is the share's 95 % Wilson score interval.
func (s Share) Interval() (lo, hi float64) {
	const z = 1.959964
	n, p := float64(s.Trials), float64(s.Hits)/float64(s.Trials)
	mid := (p + z*z/(2*n)) / (1 + z*z/n)
	half := z / (1 + z*z/n) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return max(mid-half, 0), min(mid+half, 1)
}

func (s Share) String() string {
	lo, hi := s.Interval()
	return fmt.Sprintf("%s [%s, %s]", pct(float64(s.Hits)/float64(s.Trials)), pct(lo), pct(hi))
}

// Alarms are false-alarm rates on stable runs of a test of k series.
type Alarms struct {
	Series Share   // stable series (the test's first) with any change point
	Test   Share   // stable tests with a change point in any of their series
	Gate   float64 // the share of runs after which --fail-on-change (newest 5 runs, worse) would fail on one series
	Ever   Share   // gated series on which it would fail after any of their runs
}

// alarmRates runs the method on the k series of trials stable tests of n
// runs, once on the whole series; and after each run of the first series
// of gated of them, as a CI gate would.
func alarmRates(m history.Method, sigma, outlier float64, n, k, trials, gated int, r *rand.Rand) Alarms {
	out := Alarms{Series: Share{Trials: trials}, Test: Share{Trials: trials}, Ever: Share{Trials: max(min(gated, trials), 1)}}
	gates, judged := 0, 0
	for i := range trials {
		test := history.Synthetic{Pre: n, Sigma: sigma, Outlier: outlier}.Test(r, k)
		any := false
		for j, xs := range test {
			if len(m.Detect(xs, true)) > 0 {
				any = true
				if j == 0 {
					out.Series.Hits++
				}
			}
		}
		if any {
			out.Test.Hits++
		}
		if i < gated {
			g, j := gateFails(m, test[0])
			gates, judged = gates+g, judged+j
			if g > 0 {
				out.Ever.Hits++
			}
		}
	}
	out.Gate = float64(gates) / float64(max(judged, 1))
	return out
}

// gateFails runs the gate after each run of xs: after how many it would
// fail, of how many it judged.
func gateFails(m history.Method, xs []float64) (fails, judged int) {
	for k := 2 * m.MinRuns; k <= len(xs); k++ {
		judged++
		if gateFailsAt(m, xs[:k], true) {
			fails++
		}
	}
	return fails, judged
}

// gateFailsAt reports whether --fail-on-change (newest 5 runs, worse, one
// endpoint's p(50)) fails on xs: a change point for the worse in its
// newest 5 runs, or, with newest, its newest runs past their level's spread.
func gateFailsAt(m history.Method, xs []float64, newest bool) bool {
	steps := m.Detect(xs, true)
	for _, st := range steps {
		if st.Change > 0 && st.At >= len(xs)-5 {
			return true
		}
	}
	return newest && m.NewestOutrun(xs, history.LevelStart(steps), history.P50, 1).Past
}

// gateSteps measures how soon the gate fails on a step: the share of
// series where it first fails on the step's 1st, 2nd, 3rd run ([0]
// unused), by change points alone and with the newest runs' spread.
func gateSteps(m history.Method, s history.Synthetic, trials int, r *rand.Rand) (alone, newest [4]float64) {
	for range trials {
		xs := s.Series(r)
		for k := 1; k <= 3 && k <= s.Post; k++ {
			if gateFailsAt(m, xs[:s.Pre+k], false) {
				for j := k; j <= 3; j++ {
					alone[j]++
				}
				break
			}
		}
		for k := 1; k <= 3 && k <= s.Post; k++ {
			if gateFailsAt(m, xs[:s.Pre+k], true) {
				for j := k; j <= 3; j++ {
					newest[j]++
				}
				break
			}
		}
	}
	for k := range alone {
		alone[k] /= float64(trials)
		newest[k] /= float64(trials)
	}
	return alone, newest
}

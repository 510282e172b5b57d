package main

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/loadlens/loadlens/internal/history"
)

// The synthetic grid: noise levels (σ of the log, as measured between
// repeated runs), steps, and the series' lengths.
var (
	sigmas = []float64{0.01, 0.02, 0.03, 0.05, 0.10}
	steps  = []float64{0.05, 0.10, 0.20, 0.30, 0.50, -0.10, -0.30}
)

const (
	preRuns     = 20   // stable runs before a step
	postRuns    = 8    // runs after it
	outlierRate = 0.03 // the chance a run is an outlier (×1.3–2)
	stableRuns  = 100  // runs of a stable series for false alarms
	// testSeries is how many series a test of two endpoints has (5
	// figures each, as record.yaml's): each is judged as one of them.
	testSeries = 2 * 5
)

// Sizes is how many synthetic series each kind of cell measures.
type Sizes struct {
	Steps  int // series per step or drift cell
	Alarms int // stable tests per false-alarm cell
	Gated  int // of those, how many the CI gate is run on after each run
}

// measureAll writes the measured section: the real series first, then the
// synthetic grid, with the noise of the first real series among its levels.
func measureAll(m history.Method, recs []*Recorded, n Sizes, r *rand.Rand) string {
	var sb strings.Builder
	levels := sigmas
	name := map[float64]string{}
	for i, rec := range recs {
		if i > 0 {
			sb.WriteString("\n")
		}
		sb.WriteString(rec.section(m))
	}
	if len(recs) > 0 {
		measured, labels := recs[0].sigmas()
		levels = append([]float64(nil), sigmas...)
		for i, sg := range measured {
			if n, ok := name[sg]; ok { // two endpoints of one noise: one row naming both
				name[sg] = strings.TrimSuffix(n, ")") + "; " + labels[i] + ")"
				continue
			}
			levels = append(levels, sg)
			name[sg] = pct(sg) + " (" + labels[i] + ")"
		}
	}
	label := func(sg float64) string {
		if n, ok := name[sg]; ok {
			return n
		}
		return pct(sg)
	}
	tm := m.Among(testSeries)
	sb.WriteString(stepTable(tm, levels, label, n, r))
	sb.WriteString(alarmTable(tm, levels, label, n, r))
	sb.WriteString(familyTable(m, n, r))
	sb.WriteString(compareMethods(m, n, r))
	sb.WriteString(gateTable(tm, n, r)) // last: the tables before draw the same series as before it
	return sb.String()
}

func stepTable(m history.Method, levels []float64, label func(float64) string, n Sizes, r *rand.Rand) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n#### Steps (synthetic: %d stable runs, then a step; %.0f %% of runs outliers ×1.3–2; each series one of the %d of a test of 2 endpoints)\n\n", preRuns, 100*outlierRate, testSeries)
	sb.WriteString("Share of steps found, ±1 run and the right sign, within 1 / 2 / 3 runs of the new level (and within 8):\n\n")
	sb.WriteString("| noise σ | " + strings.Join(stepHeads(), " | ") + " |\n|---" + strings.Repeat("|---", len(steps)) + "|\n")
	for _, sg := range levels {
		row := []string{label(sg)}
		for _, st := range steps {
			rt := stepRates(m, history.Synthetic{Pre: preRuns, Post: postRuns, Step: st, Sigma: sg, Outlier: outlierRate}, n.Steps, r)
			row = append(row, fmt.Sprintf("%s / %s / **%s** (%s)", pct(rt.Found[1]), pct(rt.Found[2]), pct(rt.Found[3]), pct(rt.Within)))
		}
		sb.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	fmt.Fprintf(&sb, "\n#### Drifts (synthetic: %d stable runs, then the change spread evenly over %d runs)\n\n", preRuns, postRuns)
	sb.WriteString("| noise σ | drift +10 % | drift +20 % | drift +50 % |\n|---|---|---|---|\n")
	for _, sg := range levels {
		row := []string{label(sg)}
		for _, d := range []float64{0.10, 0.20, 0.50} {
			rt := stepRates(m, history.Synthetic{Pre: preRuns, Post: postRuns, Drift: d, Sigma: sg, Outlier: outlierRate}, n.Steps, r)
			row = append(row, pct(rt.Within))
		}
		sb.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	return sb.String()
}

func alarmTable(m history.Method, levels []float64, label func(float64) string, n Sizes, r *rand.Rand) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n#### False alarms (synthetic: %d stable runs, %d tests of %d series per row, 95 %% intervals)\n\n", stableRuns, n.Alarms, testSeries)
	fmt.Fprintf(&sb, "An outlier run slows every series of its test at once (a noisy neighbour); each series has noise of its own.\n\n")
	fmt.Fprintf(&sb, "| noise σ | outliers | one series with any change point | the test: any of its %d series | runs after which `--fail-on-change` fails (one series) | series it fails after any run of |\n|---|---|---|---|---|---|\n", testSeries)
	for _, sg := range levels {
		for _, o := range []float64{0, outlierRate} {
			a := alarmRates(m, sg, o, stableRuns, testSeries, n.Alarms, n.Gated, r)
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s |\n", label(sg), pct(o), a.Series, a.Test, pct(a.Gate), a.Ever)
		}
	}
	return sb.String()
}

// familyTable is the price of watching more series at once: each judged
// at a smaller share of the level.
func familyTable(m history.Method, n Sizes, r *rand.Rand) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n#### Endpoints watched at once (σ = 2 %%, %.0f %% of runs outliers)\n\n", 100*outlierRate)
	sb.WriteString("| endpoints (series: × 5 figures) | step +10 % found within 3 runs | step +20 % within 3 | the test: any change point in 100 stable runs |\n|---|---|---|---|\n")
	for _, eps := range []int{1, 2, 10} {
		k := 5 * eps
		fm := m.Among(k)
		s := history.Synthetic{Pre: preRuns, Post: postRuns, Sigma: 0.02, Outlier: outlierRate}
		s.Step = 0.10
		ten := stepRates(fm, s, n.Steps, r)
		s.Step = 0.20
		twenty := stepRates(fm, s, n.Steps, r)
		a := alarmRates(fm, 0.02, outlierRate, stableRuns, k, max(n.Alarms*testSeries/k, 20), 0, r)
		fmt.Fprintf(&sb, "| %d (%d) | %s | %s | %s |\n", eps, k, pct(ten.Found[3]), pct(twenty.Found[3]), a.Test)
	}
	return sb.String()
}

// compareMethods sets the method beside what it corrects: a fixed level
// per t-test (loadlens before, and Hunter as published, every run in the
// t-test), and without asking each level to be held.
func compareMethods(m history.Method, n Sizes, r *rand.Rand) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n#### The method beside its variants (a test of 2 endpoints, %.0f %% of runs outliers)\n\n", 100*outlierRate)
	fmt.Fprintf(&sb, "| method | σ | step +10 %% found within 3 runs | step +5 %% within 3 | one series: any change point in 100 stable runs | the test (%d series) | runs after which `--fail-on-change` fails |\n|---|---|---|---|---|---|---|\n", testSeries)
	noHeld := m
	noHeld.Held = false
	before := noHeld
	before.FixedLevel = 0.001
	hunter := before
	hunter.Robust = false
	for _, v := range []struct {
		name string
		m    history.Method
	}{
		{"loadlens: level α = 0.05 over the splits and series, outliers left out, levels held", m},
		{"the same, levels not held", noHeld},
		{"loadlens before: each t-test at 0.001, outliers left out", before},
		{"Hunter as published: each t-test at 0.001, every run", hunter},
	} {
		tm := v.m.Among(testSeries)
		for _, sg := range []float64{0.02, 0.05} {
			s := history.Synthetic{Pre: preRuns, Post: postRuns, Sigma: sg, Outlier: outlierRate, Step: 0.10}
			ten := stepRates(tm, s, n.Steps, r)
			s.Step = 0.05
			five := stepRates(tm, s, n.Steps, r)
			a := alarmRates(tm, sg, outlierRate, stableRuns, testSeries, n.Alarms, n.Gated, r)
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s |\n", v.name, pct(sg), pct(ten.Found[3]), pct(five.Found[3]), a.Series, a.Test, pct(a.Gate))
		}
	}
	return sb.String()
}

// gateTable is how soon --fail-on-change fails on a step: by change points
// alone (3 runs of the new level at the least), and with the newest runs
// set against their level's spread.
func gateTable(m history.Method, n Sizes, r *rand.Rand) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n#### `--fail-on-change` on a step (synthetic: %d stable runs, then a step; %.0f %% of runs outliers; one series of a test of 2 endpoints)\n\n", preRuns, 100*outlierRate)
	sb.WriteString("Share of series where the gate, run after each run, has failed by the step's 1st / 2nd / 3rd run:\n\n")
	sb.WriteString("| noise σ | step | change points alone (before) | with the newest runs against their level's spread |\n|---|---|---|---|\n")
	for _, sg := range []float64{0.02, 0.05} {
		for _, st := range []float64{0.10, 0.20, 0.50} {
			alone, newest := gateSteps(m, history.Synthetic{Pre: preRuns, Post: 3, Step: st, Sigma: sg, Outlier: outlierRate}, n.Steps, r)
			fmt.Fprintf(&sb, "| %s | %+.0f %% | %s / %s / %s | %s / %s / %s |\n", pct(sg), 100*st,
				pct(alone[1]), pct(alone[2]), pct(alone[3]), pct(newest[1]), pct(newest[2]), pct(newest[3]))
		}
	}
	return sb.String()
}

func stepHeads() []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = fmt.Sprintf("step %+.0f %%", 100*s)
	}
	return out
}

// pct writes a share as a percentage, one decimal below 10 %.
func pct(x float64) string {
	if x < 0.1 && x != 0 {
		return fmt.Sprintf("%.1f %%", 100*x)
	}
	return fmt.Sprintf("%.0f %%", 100*x)
}

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
)

// measureAll writes the measured section: the real series first, then the
// synthetic grid.
func measureAll(m history.Method, rec *Recorded, trials int, r *rand.Rand) string {
	var sb strings.Builder
	levels := sigmas
	name := map[float64]string{}
	if rec != nil {
		sb.WriteString(rec.section(m))
		measured, labels := rec.sigmas()
		levels = append(append([]float64(nil), sigmas...), measured...)
		for i, sg := range measured {
			name[sg] = pct(sg) + " (" + labels[i] + ")"
		}
	}
	label := func(sg float64) string {
		if n, ok := name[sg]; ok {
			return n
		}
		return pct(sg)
	}
	fmt.Fprintf(&sb, "\n#### Steps (synthetic: %d stable runs, then a step; %.0f %% of runs outliers ×1.3–2)\n\n", preRuns, 100*outlierRate)
	sb.WriteString("Share of steps found, ±1 run and the right sign, within 1 / 2 / 3 runs of the new level (and within 8):\n\n")
	sb.WriteString("| noise σ | " + strings.Join(stepHeads(), " | ") + " |\n|---" + strings.Repeat("|---", len(steps)) + "|\n")
	for _, sg := range levels {
		row := []string{label(sg)}
		for _, st := range steps {
			rt := stepRates(m, Shape{Pre: preRuns, Post: postRuns, Step: st, Sigma: sg, Outlier: outlierRate}, trials, r)
			row = append(row, fmt.Sprintf("%s / %s / **%s** (%s)", pct(rt.Found[1]), pct(rt.Found[2]), pct(rt.Found[3]), pct(rt.Within)))
		}
		sb.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	fmt.Fprintf(&sb, "\n#### Drifts (synthetic: %d stable runs, then the change spread evenly over %d runs)\n\n", preRuns, postRuns)
	sb.WriteString("| noise σ | drift +10 % | drift +20 % | drift +50 % |\n|---|---|---|---|\n")
	for _, sg := range levels {
		row := []string{label(sg)}
		for _, d := range []float64{0.10, 0.20, 0.50} {
			rt := stepRates(m, Shape{Pre: preRuns, Post: postRuns, Drift: d, Sigma: sg, Outlier: outlierRate}, trials, r)
			row = append(row, pct(rt.Within))
		}
		sb.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	fmt.Fprintf(&sb, "\n#### False alarms (synthetic: %d stable runs)\n\n", stableRuns)
	sb.WriteString("| noise σ | outliers | series with any change point | runs after which `--fail-on-change` fails |\n|---|---|---|---|\n")
	for _, sg := range levels {
		for _, o := range []float64{0, outlierRate} {
			a := alarmRates(m, sg, o, stableRuns, max(trials/5, 20), r)
			sb.WriteString(fmt.Sprintf("| %s | %s | %s | %s |\n", label(sg), pct(o), pct(a.Series), pct(a.Gate)))
		}
	}
	sb.WriteString(compareRobust(m, trials, r))
	return sb.String()
}

// compareRobust sets the method beside Hunter's as published (every run in
// the t-test) at the noise the claims are made for.
func compareRobust(m history.Method, trials int, r *rand.Rand) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n#### Outliers left out of the t-test, or not (σ = 2 %%, %.0f %% of runs outliers)\n\n", 100*outlierRate)
	sb.WriteString("| method | step +10 % found within 3 runs | step +5 % within 3 | stable series with any change point | runs after which `--fail-on-change` fails |\n|---|---|---|---|---|\n")
	hunter := m
	hunter.Robust = false
	for _, v := range []struct {
		name string
		m    history.Method
	}{{"loadlens (outliers left out)", m}, {"Hunter as published", hunter}} {
		ten := stepRates(v.m, Shape{Pre: preRuns, Post: postRuns, Step: 0.10, Sigma: 0.02, Outlier: outlierRate}, trials, r)
		five := stepRates(v.m, Shape{Pre: preRuns, Post: postRuns, Step: 0.05, Sigma: 0.02, Outlier: outlierRate}, trials, r)
		a := alarmRates(v.m, 0.02, outlierRate, stableRuns, max(trials/5, 20), r)
		sb.WriteString(fmt.Sprintf("| %s | %s | %s | %s | %s |\n", v.name, pct(ten.Found[3]), pct(five.Found[3]), pct(a.Series), pct(a.Gate)))
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

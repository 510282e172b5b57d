package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatValue writes a run's figure of metric m for a table.
func FormatValue(m Metric, v Value) string {
	if !v.Has {
		return "—"
	}
	switch m {
	case TPS:
		return fmtNum(v.Value)
	case ErrorRate, CheckRate:
		return strconv.FormatFloat(100*v.Value, 'f', 2, 64) + "%"
	}
	return fmtMs(v.Value)
}

// FormatChange writes a group's change against the baseline: the change
// and its confidence interval when it is significant, else "~" and the
// interval — benchstat's mark for no significant change — with the noise
// of the runs when that is what held the change back.
func FormatChange(m Metric, base, v Value) string {
	if v.Delta == nil {
		return ""
	}
	if v.CI == nil {
		return changeText(m, v) + " (not tested: " + v.NotTested + ")"
	}
	lo, hi := v.primary(m)
	ci := "[" + scaleText(m, lo) + ", " + scaleText(m, hi) + "]"
	if v.Significant {
		return changeText(m, v) + " " + ci
	}
	if (lo > 0 || hi < 0) && v.MinEffect > floor(m) {
		return "~ " + ci + " < noise " + strings.TrimPrefix(scaleText(m, v.MinEffect), "+")
	}
	return "~ " + ci
}

// scaleText writes a change on the metric's primary scale: percent for
// req/s and latencies, percentage points for errors and checks.
func scaleText(m Metric, x float64) string {
	if m.isRatio() {
		return signed(100*x, 2) + "pp"
	}
	return signedPct(x)
}

// changeText is the size of a change: relative, or in percentage points
// for ratios, or absolute when the baseline is 0.
func changeText(m Metric, v Value) string {
	switch {
	case m.isRatio() || v.DeltaPct == nil:
		return absChangeText(m, *v.Delta)
	}
	return signedPct(*v.DeltaPct)
}

// signedPct writes a percentage with its sign: +12.3%, -4.0%.
func signedPct(p float64) string { return signed(p, 1) + "%" }

// signed writes x with a sign and the given decimals.
func signed(x float64, decimals int) string {
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// fmtMs formats milliseconds like the run summary: 850µs, 2.35ms, 23.5ms,
// 235ms, 1.23s.
func fmtMs(v float64) string {
	switch {
	case v < 1:
		return strconv.FormatFloat(v*1000, 'f', 0, 64) + "µs"
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64) + "ms"
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64) + "ms"
	case v < 1000:
		return strconv.FormatFloat(v, 'f', 0, 64) + "ms"
	}
	return strconv.FormatFloat(v/1000, 'f', 2, 64) + "s"
}

// fmtNum formats a rate or load: one decimal below 1,000, none above.
func fmtNum(v float64) string {
	if math.Abs(v) >= 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// fmtSec writes a second of a run as m:ss.
func fmtSec(s int) string { return fmt.Sprintf("%d:%02d", s/60, s%60) }

// MarshalJSON writes a value with its figures rounded — milliseconds to the
// microsecond, ratios to 6 decimals, percentages to 3 — so that the output
// is stable across platforms and readable.
func (v Value) MarshalJSON() ([]byte, error) {
	type out struct {
		Has         bool      `json:"has"`
		Value       float64   `json:"value"`
		Samples     int       `json:"samples"`
		Runs        int       `json:"runs"`
		Delta       *float64  `json:"delta,omitempty"`
		DeltaPct    *float64  `json:"delta_pct,omitempty"`
		CI          *Interval `json:"ci,omitempty"`
		CIPct       *Interval `json:"ci_pct,omitempty"`
		MinEffect   float64   `json:"min_effect,omitempty"`
		Significant bool      `json:"significant"`
		Verdict     string    `json:"verdict,omitempty"`
		Block       int       `json:"block_s,omitempty"`
		NotTested   string    `json:"not_tested,omitempty"`
	}
	round := func(x *float64, places int) *float64 {
		if x == nil {
			return nil
		}
		r := roundTo(*x, places)
		return &r
	}
	interval := func(i *Interval, places int) *Interval {
		if i == nil {
			return nil
		}
		return &Interval{roundTo(i.Lo, places), roundTo(i.Hi, places)}
	}
	return json.Marshal(out{Has: v.Has, Value: roundTo(v.Value, 6), Samples: v.Samples, Runs: v.Runs,
		Delta: round(v.Delta, 6), DeltaPct: round(v.DeltaPct, 3), CI: interval(v.CI, 6), CIPct: interval(v.CIPct, 3),
		MinEffect: roundTo(v.MinEffect, 6), Significant: v.Significant, Verdict: v.Verdict, Block: v.Block, NotTested: v.NotTested})
}

// roundTo rounds x to the given decimal places.
func roundTo(x float64, places int) float64 {
	s := math.Pow(10, float64(places))
	return math.Round(x*s) / s
}

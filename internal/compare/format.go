package compare

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// FormatValue writes a run's figure of metric m for a table.
func FormatValue(m Metric, v Value) string {
	if !v.Has {
		return "—"
	}
	switch m {
	case TPS:
		return units.Number(v.Value)
	case ErrorRate, CheckRate:
		return units.Percent(v.Value)
	}
	return units.DurationMillis(v.Value)
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
	ci := units.Interval(scaleText(m, lo), scaleText(m, hi))
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
		return units.Points(x)
	}
	return units.Change(x / 100)
}

// changeText is the size of a change: relative, or in percentage points
// for ratios, or absolute when the baseline is 0.
func changeText(m Metric, v Value) string {
	switch {
	case m.isRatio() || v.DeltaPct == nil:
		return absChangeText(m, *v.Delta)
	}
	return units.Change(*v.DeltaPct / 100)
}

// absChangeText writes a change in the metric's unit.
func absChangeText(m Metric, d float64) string {
	switch {
	case m.isRatio():
		return units.Points(d)
	case m == TPS:
		return units.Signed(units.Rate(d, "req"))
	}
	return units.Signed(units.DurationMillis(d))
}

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

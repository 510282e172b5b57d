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

// FormatChange writes a run's change against the baseline the way
// benchstat does: "~" when it is not significant, else the change —
// relative for rates and times, in percentage points for ratios — and
// always the p-value and sample sizes, so a reader can judge.
func FormatChange(m Metric, base, v Value) string {
	if v.Delta == nil {
		return ""
	}
	change := "~"
	if v.P == nil || v.Significant {
		change = changeText(m, v)
	}
	if v.P == nil {
		return change + " (too few samples to test)"
	}
	return fmt.Sprintf("%s (p=%.3f n=%d+%d)", change, *v.P, base.Samples, v.Samples)
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
// microsecond, ratios to 6 decimals, p-values to 4 — so that the output is
// stable across platforms and readable.
func (v Value) MarshalJSON() ([]byte, error) {
	type out struct {
		Has         bool     `json:"has"`
		Value       float64  `json:"value"`
		Samples     int      `json:"samples"`
		Delta       *float64 `json:"delta,omitempty"`
		DeltaPct    *float64 `json:"delta_pct,omitempty"`
		P           *float64 `json:"p,omitempty"`
		Significant bool     `json:"significant"`
	}
	round := func(x *float64, places int) *float64 {
		if x == nil {
			return nil
		}
		r := roundTo(*x, places)
		return &r
	}
	return json.Marshal(out{Has: v.Has, Value: roundTo(v.Value, 6), Samples: v.Samples, Delta: round(v.Delta, 6),
		DeltaPct: round(v.DeltaPct, 3), P: round(v.P, 4), Significant: v.Significant})
}

// roundTo rounds x to the given decimal places.
func roundTo(x float64, places int) float64 {
	s := math.Pow(10, float64(places))
	return math.Round(x*s) / s
}

package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// WriteJSON writes the comparison as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // for people and scripts, not for embedding in HTML
	return enc.Encode(r)
}

// MarshalJSON writes a value with its figures rounded — milliseconds to the
// microsecond, ratios to 6 decimals, percentages to 3 — so that the output
// is stable across platforms and readable.
func (v Value) MarshalJSON() ([]byte, error) {
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
	return json.Marshal(valueJSON{Has: v.Has, Value: roundTo(v.Value, 6), Samples: v.Samples, Runs: v.Runs,
		Delta: round(v.Delta, 6), DeltaPct: round(v.DeltaPct, 3), CI: interval(v.CI, 6), CIPct: interval(v.CIPct, 3),
		MinEffect: roundTo(v.MinEffect, 6), Significant: v.Significant, Verdict: v.Verdict, Block: v.Block, NotTested: v.NotTested, NeedSeconds: v.NeedSeconds})
}

// UnmarshalJSON reads a value as MarshalJSON writes it, so that a
// comparison can be read back and rendered again.
func (v *Value) UnmarshalJSON(b []byte) error {
	var in valueJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*v = Value{Has: in.Has, Value: in.Value, Samples: in.Samples, Runs: in.Runs, Delta: in.Delta, DeltaPct: in.DeltaPct, CI: in.CI,
		CIPct: in.CIPct, MinEffect: in.MinEffect, Significant: in.Significant, Verdict: in.Verdict, Block: in.Block, NotTested: in.NotTested,
		NeedSeconds: in.NeedSeconds}
	return nil
}

// valueJSON is a Value as JSON names its fields.
type valueJSON struct {
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
	NeedSeconds int       `json:"need_seconds,omitempty"`
}

// UnmarshalJSON reads a metric by the name MarshalJSON writes.
func (m *Metric) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	for k := range Metric(255) {
		if !strings.HasPrefix(k.String(), "metric(") && k.String() == name {
			*m = k
			return nil
		}
	}
	return fmt.Errorf("compare: unknown metric %q", name)
}

// JSONUnit is the unit of a metric's value, delta and ci in the JSON:
// "ms" for latencies, "<what>/s" for rates, "fraction" (0..1) for shares;
// delta_pct, ci_pct and min_effect are percent (percentage points of the
// fraction's 0..100 for shares).
func (m Metric) JSONUnit() string {
	switch {
	case m.isLatency():
		return "ms"
	case m.isRatio():
		return "fraction"
	}
	return m.Unit() + "/s"
}

// MarshalJSON writes a line with its unit, so a script need not know the
// metric to read its numbers.
func (l Line) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Metric Metric  `json:"metric"`
		Unit   string  `json:"unit"`
		Values []Value `json:"groups"`
	}{l.Metric, l.Metric.JSONUnit(), l.Values})
}

// roundTo rounds x to the given decimal places.
func roundTo(x float64, places int) float64 {
	s := math.Pow(10, float64(places))
	return math.Round(x*s) / s
}

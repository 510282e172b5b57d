package compare

import "github.com/loadlens/loadlens/internal/units"

// The wording of a change, shared by the tables a renderer lays out and
// the gates' reasons compare gives itself.

// ScaleText writes a change on the metric's judged scale (see Bounds):
// percent for req/s and latencies, percentage points for errors and checks.
func ScaleText(m Metric, x float64) string {
	if m.isRatio() {
		return units.Points(x)
	}
	return units.Change(x / 100)
}

// ChangeText is the size of a change: relative, or in percentage points
// for ratios, or absolute when the baseline is 0.
func ChangeText(m Metric, v Value) string {
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
	case m.isRate():
		return units.Signed(units.Rate(d, m.Unit()))
	}
	return units.Signed(units.DurationMillis(d))
}

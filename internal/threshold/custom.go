package threshold

import (
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
)

// Custom is a metric a test declares (k6's Counter, Rate and Trend): its
// thresholds are parsed against it, filtered by scenario alone.
type Custom struct {
	Name string
	Kind MetricKind // Counter, RateKind or Trend
	Time bool       // a Trend of times in milliseconds; false: of plain numbers
}

// customFilterKeys are the filter keys of a custom metric: its values are
// kept per scenario, not per request.
var customFilterKeys = []string{"scenario"}

// findCustom returns the custom metric named metric, nil when none is.
func findCustom(metric string, custom []Custom) *Custom {
	for i := range custom {
		if custom[i].Name == metric {
			c := custom[i]
			return &c
		}
	}
	return nil
}

// describe returns the metric's kind, whether its trend values are times,
// and the filter keys it allows; ok is false for an unknown metric.
func describe(metric string, custom []Custom) (kind MetricKind, timed bool, filters []string, ok bool) {
	if k, known := KindOf(metric); known {
		return k, k == Trend, filterKeys(metric), true
	}
	if c := findCustom(metric, custom); c != nil {
		return c.Kind, c.Kind == Trend && c.Time, customFilterKeys, true
	}
	return 0, false, nil, false
}

// knownNames lists the built-in metrics and the test's own for messages.
func knownNames(custom []Custom) string {
	if len(custom) == 0 {
		return knownBuiltins
	}
	names := make([]string, len(custom))
	for i, c := range custom {
		names[i] = c.Name
	}
	return knownBuiltins + "; the test's own: " + strings.Join(names, ", ")
}

// MetricKind returns the kind of the threshold's metric, built-in or the test's own.
func (t *Threshold) MetricKind() MetricKind {
	if t.Custom != nil {
		return t.Custom.Kind
	}
	k, _ := KindOf(t.Metric)
	return k
}

// IsTime reports whether the threshold's observed value is a time in
// milliseconds (a trend of times, other than its count).
func (t *Threshold) IsTime() bool {
	if t.Custom != nil {
		return t.Custom.Kind == Trend && t.Custom.Time && t.Agg != Count
	}
	k, _ := KindOf(t.Metric)
	return isTime(k, t.Agg)
}

// CustomsOf returns the custom metrics a run's layout records, for
// reading back its thresholds.
func CustomsOf(layout sample.Layout) []Custom {
	var out []Custom
	for _, m := range layout.Metrics {
		if findCustom(m.Name, out) != nil {
			continue
		}
		c := Custom{Name: m.Name, Kind: Counter, Time: m.Time}
		switch m.Kind {
		case sample.RateMetric:
			c.Kind = RateKind
		case sample.TrendMetric:
			c.Kind = Trend
		}
		out = append(out, c)
	}
	return out
}

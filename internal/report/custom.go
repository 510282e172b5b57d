package report

import (
	"strings"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// customMetric is one custom metric's totals over every scenario that adds to it.
type customMetric struct {
	name string
	info sample.MetricInfo
	tot  metrics.MetricSecond
}

// customMetrics merges each custom metric's series, in the order the
// layout first names them; nil when the test declares none.
func customMetrics(r *metrics.Run) []customMetric {
	var out []customMetric
	for i, m := range r.Layout.Metrics {
		if i >= len(r.Metrics) {
			break
		}
		j := 0
		for j < len(out) && out[j].name != m.Name {
			j++
		}
		if j == len(out) {
			out = append(out, customMetric{name: m.Name, info: m})
		}
		out[j].tot.Merge(&r.Metrics[i])
	}
	return out
}

// customJSON adds the custom metrics to summary.json's metrics as k6
// writes its own: a counter's count and rate, a rate's rate, passes and
// fails, a trend's aggregations.
func customJSON(m map[string]map[string]any, r *metrics.Run, secs float64) {
	for _, c := range customMetrics(r) {
		switch c.info.Kind {
		case sample.CounterMetric:
			m[c.name] = map[string]any{"count": c.tot.Sum, "rate": c.tot.Sum / secs}
		case sample.RateMetric:
			m[c.name] = map[string]any{"rate": nanZero(ratio(c.tot.Trues, c.tot.Count)), "passes": c.tot.Trues, "fails": c.tot.Count - c.tot.Trues}
		default:
			fig := map[string]any{"count": c.tot.Count}
			for _, a := range trendAggs {
				v, _ := c.tot.TrendFigure(a.agg, a.p)
				fig[a.name] = v
			}
			m[c.name] = fig
		}
	}
}

// writeCustom prints the custom metrics, when the test declares some.
func writeCustom(sb *strings.Builder, in *Input) {
	cs := customRows(in.Run)
	if len(cs) == 0 {
		return
	}
	rows := [][]string{{"METRIC", "TYPE", "VALUES", "FIGURES"}}
	for _, c := range cs {
		rows = append(rows, append([]string{c.Name}, c.Cells...))
	}
	table(sb, "  ", "mmrm", rows)
	sb.WriteString("\n")
}

// kindName names a custom metric's kind as its declaration does.
func kindName(m sample.MetricInfo) string {
	switch m.Kind {
	case sample.CounterMetric:
		return "counter"
	case sample.RateMetric:
		return "rate"
	}
	if m.Time {
		return "trend (time)"
	}
	return "trend"
}

// customFigures is a custom metric's figures for its row.
func customFigures(c customMetric, secs float64) string {
	switch c.info.Kind {
	case sample.CounterMetric:
		return "total " + units.Number(c.tot.Sum) + " · " + units.Rate(c.tot.Sum/secs, "")
	case sample.RateMetric:
		if c.tot.Count == 0 {
			return "-"
		}
		return units.Percent(ratio(c.tot.Trues, c.tot.Count)) + " true (" + units.Count(c.tot.Trues) + " of " + units.Count(c.tot.Count) + ")"
	}
	if c.tot.Count == 0 {
		return "-"
	}
	var parts []string
	for _, a := range trendAggs {
		if a.name == "p(90)" || a.name == "p(99)" {
			continue // the row shows the figures a summary line has room for
		}
		v, _ := c.tot.TrendFigure(a.agg, a.p)
		s := units.Number(v)
		if c.info.Time {
			s = units.DurationMillis(v)
		}
		parts = append(parts, a.name+" "+s)
	}
	return strings.Join(parts, " · ")
}

// trendAggs are a custom trend's figures, as k6's summary names them.
var trendAggs = []struct {
	name string
	agg  threshold.AggKind
	p    float64
}{
	{"min", threshold.Min, 0}, {"avg", threshold.Avg, 0}, {"med", threshold.Med, 0},
	{"p(90)", threshold.Percentile, 90}, {"p(95)", threshold.Percentile, 95}, {"p(99)", threshold.Percentile, 99},
	{"max", threshold.Max, 0},
}

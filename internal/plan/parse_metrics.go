package plan

import (
	"math"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// maxCustomMetrics bounds the metrics a test may declare: each is a
// series per scenario in every second's snapshot.
const maxCustomMetrics = 100

// metricKeys are the keys of a custom metric declared as a mapping.
var metricKeys = []string{"type", "time"}

// Add is one value an add: step gives a custom metric.
type Add struct {
	Series int32  // id in Layout.Metrics; -1 in a setup or teardown, which is not measured
	Metric string // the metric's name
	Kind   threshold.MetricKind
	Value  *tmpl.Template // rendered, then read as a number (or true/false)
}

// customMetrics parses the top-level metrics: mapping, name → kind.
func (p *parser) customMetrics(n yamldoc.Node) []threshold.Custom {
	o, ok := p.Object(n, "a mapping of metric names to their type (counter, rate or trend)", nil)
	if !ok {
		return nil
	}
	if len(o.Fields) > maxCustomMetrics {
		p.Errs.Add(n.Pos, n.Path, "at most %d custom metrics, got %d", maxCustomMetrics, len(o.Fields))
		return nil
	}
	var out []threshold.Custom
	for _, f := range o.Fields {
		if c, ok := p.customMetric(f); ok {
			out = append(out, c)
		}
	}
	return out
}

// customMetric parses one declaration: `name: trend`, or a mapping with
// type and time (a trend of times in milliseconds).
func (p *parser) customMetric(f yamldoc.Field) (threshold.Custom, bool) {
	c := threshold.Custom{Name: f.Name}
	if !isIdent(f.Name) || len(f.Name) > 128 {
		p.Errs.Add(f.Value.Key, f.Value.Path, "metric name %q may use letters, digits and _, not starting with a digit, at most 128 characters", f.Name)
		return c, false
	}
	if _, builtin := threshold.KindOf(f.Name); builtin {
		p.Errs.Add(f.Value.Key, f.Value.Path, "metric %q is a built-in metric: name yours differently", f.Name)
		return c, false
	}
	typ, typNode := f.Value, f.Value
	if yamldoc.IsMapping(f.Value.V) {
		o, ok := p.Object(f.Value, "", metricKeys)
		if !ok {
			return c, false
		}
		if typ, ok = o.Get("type"); !ok {
			p.Errs.Missing(f.Value.Key, f.Value.Path, f.Value.Path, "missing key \"type\": counter, rate or trend")
			return c, false
		}
		typNode = typ
		if t, has := o.Get("time"); has {
			c.Time, _ = p.Bool(t)
		}
	}
	s, ok := p.NonEmpty(typ, "counter, rate or trend")
	if !ok {
		return c, false
	}
	switch s {
	case "counter":
		c.Kind = threshold.Counter
	case "rate":
		c.Kind = threshold.RateKind
	case "trend":
		c.Kind = threshold.Trend
	default:
		p.Errs.Add(typNode.Pos, typNode.Path, "unknown metric type %q: counter, rate or trend (as k6's Counter, Rate, Trend)", s)
		return c, false
	}
	if c.Time && c.Kind != threshold.Trend {
		p.Errs.Add(typNode.Pos, typNode.Path, "time: true is for a trend; a %s is not a time", s)
		return c, false
	}
	return c, true
}

// adds parses an add: step's mapping of metric names to values.
func (p *parser) adds(val yamldoc.Node, sc *scenarioCtx) []Add {
	o, ok := p.Object(val, "a mapping of metric names to values, like {orders: 1}", nil)
	if !ok {
		return nil
	}
	if len(o.Fields) == 0 {
		p.Errs.Add(val.Pos, val.Path, "needs at least one metric")
	}
	var out []Add
	for _, f := range o.Fields {
		c, ok := p.declared(f)
		if !ok {
			continue
		}
		src, ok := p.setText(f.Value)
		if !ok {
			continue
		}
		t, ok := p.Compile(f.Value, src, sc.scope)
		if !ok {
			continue
		}
		if v, isConst := t.Const(); isConst {
			if _, ok := MetricValue(c.Kind, v); !ok {
				p.Errs.Add(f.Value.Pos, f.Value.Path, "%s is not a value for %s, a %s: %s", strconv.Quote(src), c.Name, c.Kind, valueHint(c.Kind))
				continue
			}
		}
		a := Add{Series: -1, Metric: c.Name, Kind: c.Kind, Value: t}
		if sc.s.ID >= 0 { // a setup's or teardown's values are not measured
			a.Series = p.layout.metric(sc.s.ID, c)
		}
		out = append(out, a)
	}
	return out
}

// declared returns the custom metric an add: names, reporting one the
// test does not declare.
func (p *parser) declared(f yamldoc.Field) (threshold.Custom, bool) {
	names := make([]string, len(p.customs))
	for i, c := range p.customs {
		if c.Name == f.Name {
			return c, true
		}
		names[i] = c.Name
	}
	msg := "metric " + strconv.Quote(f.Name) + " is not declared: declare it under the top-level metrics: key"
	if s := yamldoc.Closest(f.Name, names); s != "" {
		msg += "; did you mean " + strconv.Quote(s) + "?"
	}
	p.Errs.Add(f.Value.Key, f.Value.Path, "%s (declared: %s)", msg, quoteList(names, 10))
	return threshold.Custom{}, false
}

// valueHint says what values a kind of metric takes.
func valueHint(k threshold.MetricKind) string {
	if k == threshold.RateKind {
		return "true, false or a number (0 is false)"
	}
	if k == threshold.Trend {
		return "a number from 0 to 60000"
	}
	return "a number"
}

// MetricValue reads a rendered value added to a metric of kind k: a
// number, or for a rate also true or false (and empty, which is false, as
// k6 reads ""). ok is false for anything else.
func MetricValue(k threshold.MetricKind, s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if k == threshold.RateKind {
		switch s {
		case "true":
			return 1, true
		case "false", "":
			return 0, true
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if k == threshold.Trend && (v < 0 || v > 60000) {
		return 0, false
	}
	return v, true
}

// metric returns the id of the scenario's series of custom metric c,
// adding it when new.
func (b *layoutBuilder) metric(scenario int32, c threshold.Custom) int32 {
	for i, m := range b.layout.Metrics {
		if m.Scenario == scenario && m.Name == c.Name {
			return int32(i)
		}
	}
	kind := sample.CounterMetric
	switch c.Kind {
	case threshold.RateKind:
		kind = sample.RateMetric
	case threshold.Trend:
		kind = sample.TrendMetric
	}
	b.layout.Metrics = append(b.layout.Metrics, sample.MetricInfo{Scenario: scenario, Name: c.Name, Kind: kind, Time: c.Time})
	return int32(len(b.layout.Metrics) - 1)
}

// customAdded reports a threshold on a custom metric that no scenario's
// step adds to: it would fail for want of data whatever the run did.
func (p *parser) customAdded(f yamldoc.Field, metric string) bool {
	if _, builtin := threshold.KindOf(metric); builtin {
		return true
	}
	for _, m := range p.layout.layout.Metrics {
		if m.Name == metric {
			return true
		}
	}
	p.Errs.Add(f.Value.Key, f.Value.Path, "no scenario's flow adds to metric %q (an add: step): this threshold would have no data", metric)
	return false
}

package compare

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
)

// Metric is one compared figure.
type Metric uint8

// The compared figures, in table order.
const (
	TPS       Metric = iota // requests per second
	P50                     // median request duration
	P95                     // 95th percentile request duration
	P99                     // 99th percentile request duration
	ErrorRate               // failed requests / requests
	CheckRate               // passed checks / checks
	numMetrics
)

// String names the metric as tables show it.
func (m Metric) String() string {
	switch m {
	case TPS:
		return "req/s"
	case P50:
		return "p50"
	case P95:
		return "p95"
	case P99:
		return "p99"
	case ErrorRate:
		return "errors"
	case CheckRate:
		return "checks"
	}
	return fmt.Sprintf("metric(%d)", uint8(m))
}

// MarshalJSON writes the metric's name.
func (m Metric) MarshalJSON() ([]byte, error) { return json.Marshal(m.String()) }

// HigherIsBetter reports whether a rise of the metric is an improvement.
func (m Metric) HigherIsBetter() bool { return m == TPS || m == CheckRate }

// percentile is the quantile of a latency metric.
func (m Metric) percentile() float64 {
	switch m {
	case P50:
		return 50
	case P95:
		return 95
	}
	return 99
}

// isRatio reports whether the metric is a ratio, whose changes read best
// in percentage points.
func (m Metric) isRatio() bool { return m == ErrorRate || m == CheckRate }

// allEndpoints names the row of every endpoint merged.
const allEndpoints = "all endpoints"

// runView is one run's compared seconds and exact figures.
type runView struct {
	run         *metrics.Run
	exact       *metrics.Run // the compared seconds, or the whole run without a Window
	first, last int          // indexes into run.Series
}

// newRunView locates a run's compared seconds and loads their exact figures.
func newRunView(in Input, info RunInfo) (*runView, error) {
	v := &runView{run: in.Run, exact: in.Run, first: -1}
	for i, s := range in.Run.Series {
		if s.Sec == info.First && v.first < 0 {
			v.first = i
		}
		if s.Sec == info.Last {
			v.last = i
		}
	}
	if in.Window != nil {
		w, err := in.Window(info.First, info.Last)
		if err != nil {
			return nil, fmt.Errorf("compare: %s: reading seconds %d–%d: %w", in.Name, info.First, info.Last, err)
		}
		if len(w.Endpoints) != len(in.Run.Endpoints) || len(w.Checks) != len(in.Run.Checks) {
			return nil, fmt.Errorf("compare: %s: the window of seconds %d–%d has another layout than the run", in.Name, info.First, info.Last)
		}
		v.exact = w
	}
	return v, nil
}

// endpointKey names endpoint e of r for matching across runs: its name,
// with the scenario when any run has several scenarios.
func endpointKey(r *metrics.Run, e int, withScenario bool) string {
	ep := r.Layout.Endpoints[e]
	if !withScenario {
		return ep.Name
	}
	sc := ""
	if int(ep.Scenario) < len(r.Layout.Scenarios) {
		sc = r.Layout.Scenarios[ep.Scenario].Name
	}
	return sc + " · " + ep.Name
}

// buildRows makes the overall row, then one row per endpoint (in the order
// runs define them) when there is more than one endpoint; and every endpoint name.
func buildRows(views []*runView, alpha float64) ([]Row, []string) {
	withScenario := false
	for _, v := range views {
		withScenario = withScenario || len(v.run.Layout.Scenarios) > 1
	}
	var keys []string
	index := make([]map[string]int, len(views)) // key → endpoint id, per run
	seen := map[string]bool{}
	for i, v := range views {
		index[i] = map[string]int{}
		for e := range v.run.Layout.Endpoints {
			k := endpointKey(v.run, e, withScenario)
			index[i][k] = e
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	rows := []Row{buildRow(allEndpoints, views, func(int) (int, bool) { return -1, true }, alpha)}
	if len(keys) > 1 {
		for _, k := range keys {
			rows = append(rows, buildRow(k, views, func(i int) (int, bool) { e, ok := index[i][k]; return e, ok }, alpha))
		}
	}
	return rows, keys
}

// buildRow computes every metric of one row; endpoint returns the row's
// endpoint id in run i (-1 for all endpoints) and whether the run has it.
func buildRow(name string, views []*runView, endpoint func(i int) (int, bool), alpha float64) Row {
	figs := make([]figures, len(views))
	for i, v := range views {
		if e, ok := endpoint(i); ok {
			figs[i] = v.figures(e)
		}
	}
	row := Row{Name: name}
	for m := TPS; m < numMetrics; m++ {
		line := Line{Metric: m, Values: make([]Value, len(views))}
		for i := range views {
			line.Values[i] = figs[i].value(m)
		}
		for i := 1; i < len(views); i++ {
			line.Values[i].against(line.Values[0], figs[0], figs[i], m, alpha)
		}
		row.Lines = append(row.Lines, line)
	}
	return row
}

// figures is one run's data for one row.
type figures struct {
	present          bool
	requests, failed int64
	seconds          int
	perSecond        [numMetrics][]float64 // samples of TPS .. ErrorRate
	hist             *metrics.Hist
	passes, fails    int64
}

// figures gathers endpoint e's data (all endpoints for -1) over the
// compared seconds.
func (v *runView) figures(e int) figures {
	f := figures{present: true, seconds: v.last - v.first + 1}
	for _, s := range v.run.Series[v.first : v.last+1] {
		reqs, failed, p50, p95, p99 := s.Requests, s.Failed, s.P50, s.P95, s.P99
		if e >= 0 {
			if e >= len(s.PerEndpoint) {
				continue
			}
			pe := s.PerEndpoint[e]
			reqs, failed, p50, p95, p99 = pe.Requests, pe.Failed, pe.P50, pe.P95, pe.P99
		}
		f.requests += reqs
		f.failed += failed
		f.perSecond[TPS] = append(f.perSecond[TPS], float64(reqs))
		if reqs > 0 {
			f.perSecond[P50] = append(f.perSecond[P50], ms(p50))
			f.perSecond[P95] = append(f.perSecond[P95], ms(p95))
			f.perSecond[P99] = append(f.perSecond[P99], ms(p99))
			f.perSecond[ErrorRate] = append(f.perSecond[ErrorRate], float64(failed)/float64(reqs))
		}
	}
	if e < 0 {
		t := v.exact.Total()
		f.hist = t.Duration
	} else {
		f.hist = v.exact.Endpoints[e].Duration
	}
	for c, info := range v.exact.Layout.Checks {
		if e < 0 || int(info.Endpoint) == e {
			f.passes += v.exact.Checks[c].Passes
			f.fails += v.exact.Checks[c].Fails
		}
	}
	return f
}

// value is the run's figure of metric m.
func (f *figures) value(m Metric) Value {
	if !f.present {
		return Value{}
	}
	switch m {
	case TPS:
		return Value{Has: f.seconds > 0, Value: float64(f.requests) / float64(max(f.seconds, 1)), Samples: f.seconds}
	case P50, P95, P99:
		if f.hist == nil || f.hist.Count() == 0 {
			return Value{}
		}
		return Value{Has: true, Value: ms(f.hist.Quantile(m.percentile())), Samples: len(f.perSecond[m])}
	case ErrorRate:
		if f.requests == 0 {
			return Value{}
		}
		return Value{Has: true, Value: float64(f.failed) / float64(f.requests), Samples: len(f.perSecond[m])}
	case CheckRate:
		n := f.passes + f.fails
		if n == 0 {
			return Value{}
		}
		return Value{Has: true, Value: float64(f.passes) / float64(n), Samples: int(n)}
	}
	return Value{}
}

// against fills in v's change from the baseline's value and its p-value.
func (v *Value) against(base Value, fb, fv figures, m Metric, alpha float64) {
	if !v.Has || !base.Has {
		return
	}
	d := v.Value - base.Value
	v.Delta = &d
	if base.Value != 0 {
		pct := 100 * d / base.Value
		v.DeltaPct = &pct
	}
	var p float64
	var ok bool
	if m == CheckRate {
		p, ok = TwoProportions(fb.passes, fb.passes+fb.fails, fv.passes, fv.passes+fv.fails)
	} else {
		p, ok = MannWhitney(fb.perSecond[m], fv.perSecond[m])
	}
	if ok {
		v.P = &p
		v.Significant = p < alpha && d != 0
	}
}

// ms converts a duration to milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

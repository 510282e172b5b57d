package metrics

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// MetricSecond is what one custom metric's series (a metric in one
// scenario) was given during one second, or over a whole run.
type MetricSecond struct {
	Count    int64   // values added (numbers; for a trend, in range)
	Sum      float64 // counter and trend: the sum of the values
	Min, Max float64 // trend: the exact extremes, valid when Count > 0
	Trues    int64   // rate: the values that were true (non-zero)
	Invalid  int64   // values not recorded: not a number, or a trend's value outside 0..60,000
	Trend    *Hist   // trend: the values as milliseconds (3 significant digits); nil when none
}

// trendHighest is the largest value a trend keeps: its histogram's range,
// read as milliseconds (60 s).
const trendHighest = float64(histHighest) / 1000

// addValue records value v into series m of a window; the caller holds
// the shard's lock. A trend's values are kept like durations in ms.
func (w *window) addValue(m int32, kind sample.MetricKind, v float64) {
	s := &w.metrics[m]
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		s.Invalid++
		return
	case kind == sample.CounterMetric:
		s.Sum += v
	case kind == sample.RateMetric:
		if v != 0 {
			s.Trues++
		}
	case kind == sample.TrendMetric:
		if v < 0 || v > trendHighest {
			s.Invalid++
			return
		}
		if w.trends[m] == nil {
			w.trends[m] = newDense()
		}
		_ = w.trends[m].RecordValue(int64(math.Round(v * 1000)))
		s.Sum += v
		s.extremes(v, v, 1)
	}
	s.Count++
}

// extremes widens m's Min and Max to lo and hi, from n values.
func (m *MetricSecond) extremes(lo, hi float64, n int64) {
	if n == 0 {
		return
	}
	if m.Count == 0 {
		m.Min, m.Max = lo, hi
		return
	}
	m.Min, m.Max = min(m.Min, lo), max(m.Max, hi)
}

// Add records one value added to a custom metric's series.
func (s *shard) Add(series int32, end time.Duration, v float64) {
	if series < 0 || int(series) >= len(s.layout.Metrics) {
		panic(fmt.Sprintf("metrics: custom metric series %d outside the layout's %d", series, len(s.layout.Metrics)))
	}
	s.mu.Lock()
	s.windowAt(end).addValue(series, s.layout.Metrics[series].Kind, v)
	s.mu.Unlock()
}

// mergeMetrics adds the windows' custom metrics into snap.
func mergeMetrics(snap *Snapshot, taken []*window) {
	for i := range snap.Metrics {
		m := &snap.Metrics[i]
		for _, w := range taken {
			m.add(&w.metrics[i])
		}
		m.Trend = sumDense(taken, func(w *window) *hdr.Histogram { return w.trends[i] })
	}
}

// resetMetrics empties a window's custom metrics, keeping its histograms.
func (w *window) resetMetrics() {
	clear(w.metrics)
	for _, h := range w.trends {
		resetDense(h)
	}
}

// add adds o's counts, sum and extremes (not its histogram) into m.
func (m *MetricSecond) add(o *MetricSecond) {
	m.extremes(o.Min, o.Max, o.Count)
	m.Count += o.Count
	m.Sum += o.Sum
	m.Trues += o.Trues
	m.Invalid += o.Invalid
}

// Merge adds o into m, its histogram too.
func (m *MetricSecond) Merge(o *MetricSecond) {
	m.add(o)
	m.Trend = mergeHist(m.Trend, o.Trend)
}

// appendMetrics appends the custom metrics' section of a snapshot.
func appendMetrics(b []byte, hc *histCodec, s *Snapshot) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(s.Metrics)))
	var err error
	for i := range s.Metrics {
		m := &s.Metrics[i]
		b = binary.AppendVarint(b, m.Count)
		b = binary.AppendVarint(b, m.Trues)
		b = binary.AppendVarint(b, m.Invalid)
		b = binary.AppendUvarint(b, math.Float64bits(m.Sum))
		b = binary.AppendUvarint(b, math.Float64bits(m.Min))
		b = binary.AppendUvarint(b, math.Float64bits(m.Max))
		if b, err = appendHist(b, hc, m.Trend); err != nil {
			return nil, fmt.Errorf("snapshot of second %d: custom metric series %d: %w", s.Second, i, err)
		}
	}
	return b, nil
}

// metrics reads the custom metrics' section of a snapshot.
func (d *decoder) metrics() []MetricSecond {
	out := make([]MetricSecond, d.length("number of custom metric series", 7))
	for i := range out {
		m := &out[i]
		m.Count = d.count("custom metric values")
		m.Trues = d.count("custom metric true values")
		m.Invalid = d.count("custom metric invalid values")
		m.Sum = math.Float64frombits(d.uvarint("custom metric sum"))
		m.Min = math.Float64frombits(d.uvarint("custom metric minimum"))
		m.Max = math.Float64frombits(d.uvarint("custom metric maximum"))
		m.Trend = d.hist("custom metric trend histogram")
		if d.err != nil {
			break
		}
	}
	return out
}

// observeCustom aggregates a custom metric over the series its filter
// selects (by scenario): a counter's count is its sum, and its rate that
// sum per second; a rate is the share of true values; a trend is judged
// as the built-in ones are.
func (r *Run) observeCustom(t *threshold.Threshold) (float64, bool) {
	var tot MetricSecond
	found := false
	for i, m := range r.Layout.Metrics {
		if m.Name != t.Metric || i >= len(r.Metrics) || !r.scenarioSelected(m.Scenario, t.Filter) {
			continue
		}
		found = true
		tot.Merge(&r.Metrics[i])
	}
	if !found {
		return 0, false
	}
	switch t.Custom.Kind {
	case threshold.Counter:
		if t.Agg == threshold.Count {
			return tot.Sum, true
		}
		if secs := r.Elapsed().Seconds(); secs > 0 {
			return tot.Sum / secs, true
		}
		return 0, false
	case threshold.RateKind:
		if tot.Count == 0 {
			return 0, false
		}
		return float64(tot.Trues) / float64(tot.Count), true
	}
	return tot.TrendFigure(t.Agg, t.P)
}

// TrendFigure aggregates a custom trend (p is the percentile of
// threshold.Percentile): count, avg, min and max exactly, percentiles from
// its histogram (3 significant digits) kept within the exact extremes, so
// that p(95) of values all 3 is 3, not 3.001.
func (m *MetricSecond) TrendFigure(agg threshold.AggKind, p float64) (float64, bool) {
	if m.Count == 0 {
		return 0, false
	}
	switch agg {
	case threshold.Count:
		return float64(m.Count), true
	case threshold.Avg:
		return m.Sum / float64(m.Count), true
	case threshold.Min:
		return m.Min, true
	case threshold.Max:
		return m.Max, true
	}
	v, ok := trendValue(m.Trend, &threshold.Threshold{Agg: agg, P: p})
	return min(max(v, m.Min), m.Max), ok
}

// scenarioSelected reports whether a filter's scenario tags, if any, name scenario sc.
func (r *Run) scenarioSelected(sc int32, filter []threshold.Tag) bool {
	for _, f := range filter {
		if f.Key == "scenario" && r.scenarioName(sc) != f.Value {
			return false
		}
	}
	return true
}

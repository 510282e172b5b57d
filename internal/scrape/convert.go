package scrape

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/loadlens/loadlens/internal/series"
)

// converter turns a target's expositions into series: it remembers each
// counter's last value for rates, and each series' output labels so they
// are built once.
type converter struct {
	extra []series.Label          // the target's labels and target=<name>, sorted
	known map[string]*sampleState // by sample key (name and exposed labels)
	gen   uint64                  // counts conversions, to forget samples that vanished
	key   []byte                  // scratch for sample keys
	span  time.Duration           // the least time a rate is taken over

	lim      *bounds             // the run's bounds, shared by its targets
	admitted map[string]struct{} // keys of every series the target was allowed over the run
	over     Overflow            // what the latest conversion left out
}

// sampleState is what a converter remembers of one sample.
type sampleState struct {
	name   string
	labels []series.Label // output labels: exposed (clashes renamed exported_*) and extra
	kind   series.Kind
	prev   float64   // a cumulative sample's last value...
	prevAt time.Time // ...and when it was scraped
	seen   uint64    // the conversion that last saw it
}

// newConverter returns a converter for a target of a run with bounds lim.
func newConverter(cfg *Target, lim *bounds) *converter {
	extra := append(slices.Clone(cfg.Labels), series.Label{Name: "target", Value: cfg.Name})
	series.SortLabels(extra)
	return &converter{extra: extra, known: map[string]*sampleState{}, span: cfg.Interval / 2, lim: lim, admitted: map[string]struct{}{}}
}

// convert returns the series an exposition scraped at time at keeps, each
// with its point at second sec. A cumulative sample seen for the first time
// gives no point: its rate needs two scrapes.
func (c *converter) convert(fams map[string]*dto.MetricFamily, sel *selection, at time.Time, sec int) series.Set {
	c.gen++
	names := make([]string, 0, len(fams))
	for name := range fams {
		names = append(names, name)
	}
	sort.Strings(names)
	var out series.Set
	agg := newAggregates(sel, c)
	for _, name := range names {
		eachSample(fams[name], func(s *sample) {
			raw := sel.keepRaw(s)
			if !raw && !agg.wants(s) {
				return
			}
			if oversized(s) {
				c.over.Oversized++
				return
			}
			if s.rate && sel.keepsValue(s) {
				s.rate = false
			}
			if !s.rate && s.untyped && sel.takesRate(s) {
				s.rate = true
			}
			st := c.state(s)
			if st == nil {
				return // beyond the bounds: counted in c.over
			}
			v, ok := c.value(st, s, at)
			if raw && ok {
				out = append(out, point(st.name, st.labels, st.kind, sec, v))
			}
			agg.add(s, v, ok)
		})
	}
	out = append(out, agg.series(sec)...)
	for k, st := range c.known {
		if st.seen != c.gen {
			delete(c.known, k)
		}
	}
	return out
}

// state returns the remembered state of a sample, creating it; nil when
// the sample is new and the target or the run already has all the series
// the bounds allow.
func (c *converter) state(s *sample) *sampleState {
	c.key = append(c.key[:0], s.name...)
	for _, l := range s.labels {
		c.key = append(c.key, 0xff)
		c.key = append(c.key, l.name...)
		c.key = append(c.key, 0xfe)
		c.key = append(c.key, l.value...)
	}
	st, ok := c.known[string(c.key)]
	if !ok {
		if !c.admit(string(c.key)) {
			return nil
		}
		st = &sampleState{name: s.name, labels: c.outLabels(s.labels), kind: series.Gauge}
		if s.rate {
			st.kind = series.Rate
		}
		c.known[string(c.key)] = st
	}
	st.seen = c.gen
	return st
}

// admit reports whether the series of key may be kept: one the target was
// allowed before (it vanished and came back), or a new one within the
// target's and the run's bounds. Those refused are counted in c.over.
func (c *converter) admit(key string) bool {
	if _, ok := c.admitted[key]; ok {
		return true
	}
	switch {
	case len(c.admitted) >= c.lim.perTarget:
		c.over.TargetFull++
		return false
	case !c.lim.take():
		c.over.RunFull++
		return false
	}
	c.admitted[key] = struct{}{}
	return true
}

// value returns the sample's value as kept: a gauge as read, a cumulative
// sample as its per-second rate since the last scrape (a drop means the
// counter restarted from zero). It is false when there is no finite value.
func (c *converter) value(st *sampleState, s *sample, at time.Time) (float64, bool) {
	if math.IsNaN(s.value) || math.IsInf(s.value, 0) {
		return 0, false
	}
	if !s.rate {
		return s.value, true
	}
	prev, prevAt, had := st.prev, st.prevAt, !st.prevAt.IsZero()
	if had && at.Sub(prevAt) < c.span && s.value >= prev {
		// A late answer and the next on time come a fraction of a second
		// apart, and when each was read inside the target is not known to
		// that precision (a JVM's CPU read 1.79 of its 1 core so): the next
		// scrape's rate spans both.
		return 0, false
	}
	st.prev, st.prevAt = s.value, at
	dt := at.Sub(prevAt).Seconds()
	if !had || dt <= 0 {
		return 0, false
	}
	if s.value < prev {
		return s.value / dt, true
	}
	return (s.value - prev) / dt, true
}

// outLabels returns a sample's output labels: its own, renamed
// exported_<name> where they clash with the target's, then the target's.
func (c *converter) outLabels(own []labelPair) []series.Label {
	out := make([]series.Label, 0, len(own)+len(c.extra))
	for _, l := range own {
		name := l.name
		for clashes(name, c.extra) {
			name = "exported_" + name
		}
		out = append(out, series.Label{Name: name, Value: l.value})
	}
	out = append(out, c.extra...)
	series.SortLabels(out)
	return out
}

// clashes reports whether a label name is among ls.
func clashes(name string, ls []series.Label) bool {
	for _, l := range ls {
		if l.Name == name {
			return true
		}
	}
	return false
}

// synthetic returns a series about the scrape itself (up, its duration),
// labelled like the target's own.
func (c *converter) synthetic(name string, sec int, v float64) *series.Series {
	return point(name, c.extra, series.Gauge, sec, v)
}

// point returns a series holding one point.
func point(name string, labels []series.Label, kind series.Kind, sec int, v float64) *series.Series {
	return &series.Series{Name: name, Labels: labels, Kind: kind, Points: []series.Point{{Sec: sec, Value: v}}}
}

// eachSample calls fn with every sample of a family, reusing one sample.
func eachSample(mf *dto.MetricFamily, fn func(*sample)) {
	fam := mf.GetName()
	var s sample
	for _, m := range mf.GetMetric() {
		s.labels = s.labels[:0]
		for _, lp := range m.GetLabel() {
			s.labels = append(s.labels, labelPair{lp.GetName(), lp.GetValue()})
		}
		base := len(s.labels)
		emit := func(name, detail string, v float64, rate bool) {
			s.family, s.name, s.detail, s.value, s.rate = fam, name, detail, v, rate
			s.untyped = mf.GetType() == dto.MetricType_UNTYPED
			fn(&s)
		}
		switch mf.GetType() {
		case dto.MetricType_COUNTER:
			emit(fam, "", m.GetCounter().GetValue(), true)
		case dto.MetricType_GAUGE:
			emit(fam, "", m.GetGauge().GetValue(), false)
		case dto.MetricType_UNTYPED:
			// An untyped _total follows the counter naming convention.
			emit(fam, "", m.GetUntyped().GetValue(), strings.HasSuffix(fam, "_total"))
		case dto.MetricType_SUMMARY:
			sm := m.GetSummary()
			emit(fam+"_sum", "", sm.GetSampleSum(), true)
			emit(fam+"_count", "", float64(sm.GetSampleCount()), true)
			for _, q := range sm.GetQuantile() {
				s.labels = append(s.labels[:base], labelPair{"quantile", formatFloat(q.GetQuantile())})
				emit(fam, "quantile", q.GetValue(), false)
			}
		case dto.MetricType_HISTOGRAM, dto.MetricType_GAUGE_HISTOGRAM:
			h := m.GetHistogram()
			cumulative := mf.GetType() == dto.MetricType_HISTOGRAM
			emit(fam+"_sum", "", h.GetSampleSum(), cumulative)
			emit(fam+"_count", "", histCount(h.GetSampleCountFloat(), h.GetSampleCount()), cumulative)
			for _, b := range h.GetBucket() {
				s.labels = append(s.labels[:base], labelPair{"le", formatFloat(b.GetUpperBound())})
				emit(fam+"_bucket", "le", histCount(b.GetCumulativeCountFloat(), b.GetCumulativeCount()), cumulative)
			}
		}
		s.labels = s.labels[:base]
	}
}

// histCount returns a histogram count, which the parser keeps as a float
// when any count of the histogram was written as one.
func histCount(f float64, u uint64) float64 {
	if f != 0 {
		return f
	}
	return float64(u)
}

// formatFloat writes le and quantile values as Prometheus does.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

package output

import (
	"sort"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/sample"
)

// The series the remote-write sink writes: k6's names, so that dashboards
// built for k6's Prometheus output work, plus loadlens's own.
const (
	promReqs          = "k6_http_reqs_total"
	promReqFailedRate = "k6_http_req_failed_rate"
	promDurationPre   = "k6_http_req_duration_" // + min, max, avg, med, p90, p95, p99; seconds
	promWaitingPre    = "k6_http_req_waiting_"  // the same stats of the time to the first byte
	promIterationPre  = "k6_iteration_duration_"
	promConnectingPre = "k6_http_req_connecting_"      // + avg, max: only these are kept per second
	promTLSPre        = "k6_http_req_tls_handshaking_" // + avg, max
	promChecksRate    = "k6_checks_rate"
	promDataSent      = "k6_data_sent_total"
	promDataReceived  = "k6_data_received_total"
	promIterations    = "k6_iterations_total"
	promDropped       = "k6_dropped_iterations_total"
	promVUs           = "k6_vus"
	promVUsMax        = "k6_vus_max"
	promFailures      = "loadlens_http_req_failures_total"   // by failure kind
	promNotSent       = "loadlens_iterations_not_sent_total" // iterations a request that could not be sent ended; k6 has none
	promDurationHist  = "loadlens_http_req_duration_seconds" // native histogram, the run so far
)

// trendStats are the k6 trend stats written as gauges, and how to read each.
var trendStats = []struct {
	name string
	of   func(*Trend) float64
}{
	{"min", func(t *Trend) float64 { return t.Min.Seconds() }},
	{"max", func(t *Trend) float64 { return t.Max.Seconds() }},
	{"avg", func(t *Trend) float64 { return t.Avg.Seconds() }},
	{"med", func(t *Trend) float64 { return t.Med.Seconds() }},
	{"p90", func(t *Trend) float64 { return t.P90.Seconds() }},
	{"p95", func(t *Trend) float64 { return t.P95.Seconds() }},
	{"p99", func(t *Trend) float64 { return t.P99.Seconds() }},
}

// PromSeriesNames returns the name of every series the remote-write sink
// writes, for the Grafana dashboard's test and the docs.
func PromSeriesNames() []string {
	names := []string{promReqs, promReqFailedRate, promDataSent, promDataReceived, promIterations, promDropped, promVUs, promVUsMax, promFailures, promNotSent,
		promDurationHist, promChecksRate, promConnectingPre + "avg", promConnectingPre + "max", promTLSPre + "avg", promTLSPre + "max"}
	for _, pre := range []string{promDurationPre, promWaitingPre, promIterationPre} {
		for _, t := range trendStats {
			names = append(names, pre+t.name)
		}
	}
	sort.Strings(names)
	return names
}

// trend adds a Trend's stats as gauges named pre+stat, if it has samples.
func (s *seriesSet) trend(pre string, t *Trend, labels []rwLabel, ms int64) {
	if t.Count == 0 {
		return
	}
	for _, st := range trendStats {
		s.float(pre+st.name, labels, ms, st.of(t))
	}
}

// phase adds a connection phase's mean and maximum, if it happened.
func (s *seriesSet) phase(pre string, p Phase, labels []rwLabel, ms int64) {
	if p.Count == 0 {
		return
	}
	s.float(pre+"avg", labels, ms, p.Avg.Seconds())
	s.float(pre+"max", labels, ms, p.Max.Seconds())
}

// seriesSet gathers samples by series, so that a batch of seconds makes
// one time series per label set with its samples in time order.
type seriesSet struct {
	order []string
	by    map[string]*rwSeries
}

func (s *seriesSet) get(name string, labels []rwLabel) *rwSeries {
	var key strings.Builder
	key.WriteString(name)
	for _, l := range labels {
		key.WriteString("\xff" + l.Name + "\xfe" + l.Value)
	}
	ts, ok := s.by[key.String()]
	if !ok {
		all := append([]rwLabel{{Name: "__name__", Value: name}}, labels...)
		sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
		ts = &rwSeries{Labels: all}
		s.by[key.String()] = ts
		s.order = append(s.order, key.String())
	}
	return ts
}

func (s *seriesSet) float(name string, labels []rwLabel, ms int64, v float64) {
	ts := s.get(name, labels)
	ts.Samples = append(ts.Samples, rwSample{Value: v, Timestamp: ms})
}

func (s *seriesSet) list() []rwSeries {
	out := make([]rwSeries, 0, len(s.order))
	for _, k := range s.order {
		out = append(out, *s.by[k])
	}
	return out
}

// promSeries returns the float series and the native-histogram series of
// a batch of frames. Counters are the run's totals; gauges are the second's.
func promSeries(runID string, frames []*Frame) (floats, hists []rwSeries) {
	fs := &seriesSet{by: map[string]*rwSeries{}}
	hs := &seriesSet{by: map[string]*rwSeries{}}
	for _, f := range frames {
		ms := f.Time.UnixMilli()
		for i := range f.Endpoints {
			e := &f.Endpoints[i]
			if e.Total.Requests == 0 {
				continue // an endpoint not reached yet has no series
			}
			base := []rwLabel{{Name: "testid", Value: runID}, {Name: "scenario", Value: e.Scenario},
				{Name: "endpoint", Value: e.Endpoint}, {Name: "name", Value: e.Endpoint}, {Name: "method", Value: e.Method}}
			for c, n := range e.Total.ByStatus {
				if n > 0 {
					// expected_response is k6's label for it, which k6's dashboards filter on
					l := with(with(base, "status", statusNames[c]), "expected_response", strconv.FormatBool(c == StatusOK))
					fs.float(promReqs, l, ms, float64(n))
				}
			}
			for k, n := range e.Total.Failures {
				if n > 0 {
					fs.float(promFailures, with(base, "kind", sample.Kind(k).String()), ms, float64(n))
				}
			}
			fs.float(promDataSent, base, ms, float64(e.Total.Sent))
			fs.float(promDataReceived, base, ms, float64(e.Total.Received))
			if e.Requests > 0 {
				fs.float(promReqFailedRate, base, ms, float64(e.Requests-e.ByStatus[StatusOK])/float64(e.Requests))
			}
			fs.trend(promDurationPre, &e.Duration, base, ms)
			fs.trend(promWaitingPre, &e.Waiting, base, ms)
			fs.phase(promConnectingPre, e.Connect, base, ms)
			fs.phase(promTLSPre, e.TLS, base, ms)
			ts := hs.get(promDurationHist, base)
			ts.Histograms = append(ts.Histograms, promHistogram(&e.Total.Duration, ms))
		}
		for _, s := range f.Scenarios {
			base := []rwLabel{{Name: "testid", Value: runID}, {Name: "scenario", Value: s.Scenario}}
			fs.float(promIterations, base, ms, float64(s.TotalIterations))
			fs.float(promDropped, base, ms, float64(s.TotalDropped))
			fs.float(promNotSent, base, ms, float64(s.TotalNotSent))
			fs.float(promVUs, base, ms, float64(s.VUs))
			fs.float(promVUsMax, base, ms, float64(s.VUsMax))
			fs.trend(promIterationPre, &s.IterationDuration, base, ms)
		}
		for _, c := range f.Checks {
			if n := c.Passes + c.Fails; n > 0 {
				l := []rwLabel{{Name: "testid", Value: runID}, {Name: "scenario", Value: c.Scenario}, {Name: "check", Value: c.Check}}
				fs.float(promChecksRate, l, ms, float64(c.Passes)/float64(n))
			}
		}
	}
	return fs.list(), hs.list()
}

// with returns labels plus one more, leaving labels as it was.
func with(labels []rwLabel, name, value string) []rwLabel {
	return append(labels[:len(labels):len(labels)], rwLabel{Name: name, Value: value})
}

// promHistogram encodes a native histogram as remote write 1.0 carries
// it: spans of consecutive buckets and the deltas between their counts.
func promHistogram(n *Native, ms int64) rwHistogram {
	h := rwHistogram{
		Count: n.Count, Sum: n.Sum, Schema: nativeSchema, ZeroCount: n.ZeroCount, Timestamp: ms,
	}
	var prev int64
	next := int32(0)
	for i, b := range n.Buckets {
		switch {
		case i == 0:
			h.PositiveSpans = append(h.PositiveSpans, rwSpan{Offset: b.Index, Length: 1})
		case b.Index == next:
			h.PositiveSpans[len(h.PositiveSpans)-1].Length++
		default:
			h.PositiveSpans = append(h.PositiveSpans, rwSpan{Offset: b.Index - next, Length: 1})
		}
		next = b.Index + 1
		h.PositiveDeltas = append(h.PositiveDeltas, int64(b.Count)-prev)
		prev = int64(b.Count)
	}
	return h
}

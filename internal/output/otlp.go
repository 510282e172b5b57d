package output

import (
	"context"
	"strconv"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	"google.golang.org/protobuf/proto"
)

// otlp writes OTLP metrics over HTTP protobuf. The body is a MetricsData,
// whose encoding is the same as ExportMetricsServiceRequest's (both are
// field 1, repeated ResourceMetrics): so this package needs only the data
// types, not the collector's gRPC service stubs.
type otlp struct {
	p     poster
	runID string
}

func newOTLP(p poster, runID string) *otlp { return &otlp{p: p, runID: runID} }

// Write implements Sink.
func (s *otlp) Write(ctx context.Context, frames []*Frame) error {
	b, err := proto.Marshal(otlpMetrics(s.runID, frames))
	if err != nil {
		return err
	}
	return s.p.post(ctx, b)
}

// Close implements Sink.
func (s *otlp) Close() { s.p.close() }

// otlpMetrics returns the frames as OTLP metrics, named as the remote-write
// series are without Prometheus's _total suffix: counters are cumulative
// sums from the run's start, durations an exponential histogram in
// seconds, and the second's trend stats and VUs gauges.
func otlpMetrics(runID string, frames []*Frame) *metricspb.MetricsData {
	m := &otlpBatch{by: map[string]*metricspb.Metric{}}
	for _, f := range frames {
		start, now := uint64(f.Start.UnixNano()), uint64(f.Time.UnixNano())
		for i := range f.Endpoints {
			e := &f.Endpoints[i]
			if e.Total.Requests == 0 {
				continue
			}
			base := []*commonpb.KeyValue{kv("scenario", e.Scenario), kv("endpoint", e.Endpoint), kv("name", e.Endpoint), kv("method", e.Method)}
			for c, n := range e.Total.ByStatus {
				if n > 0 {
					attrs := withKV(withKV(base, "status", statusNames[c]), "expected_response", strconv.FormatBool(c == StatusOK))
					m.sum("k6_http_reqs", "{request}", attrs, start, now, n)
				}
			}
			for k, n := range e.Total.Failures {
				if n > 0 {
					m.sum("loadlens_http_req_failures", "{request}", withKV(base, "kind", kindName(k)), start, now, n)
				}
			}
			m.sum("k6_data_sent", "By", base, start, now, e.Total.Sent)
			m.sum("k6_data_received", "By", base, start, now, e.Total.Received)
			if e.Requests > 0 {
				m.gauge("k6_http_req_failed_rate", "1", base, now, float64(e.Requests-e.ByStatus[StatusOK])/float64(e.Requests))
			}
			m.trend(promDurationPre, &e.Duration, base, now)
			m.trend(promWaitingPre, &e.Waiting, base, now)
			m.phase(promConnectingPre, e.Connect, base, now)
			m.phase(promTLSPre, e.TLS, base, now)
			m.histogram("k6_http_req_duration", base, start, now, &e.Total.Duration)
		}
		for _, s := range f.Scenarios {
			base := []*commonpb.KeyValue{kv("scenario", s.Scenario)}
			m.sum("k6_iterations", "{iteration}", base, start, now, s.TotalIterations)
			m.sum("k6_dropped_iterations", "{iteration}", base, start, now, s.TotalDropped)
			m.sum("loadlens_iterations_not_sent", "{iteration}", base, start, now, s.TotalNotSent)
			m.gauge("k6_vus", "{vu}", base, now, float64(s.VUs))
			m.gauge("k6_vus_max", "{vu}", base, now, float64(s.VUsMax))
			m.trend(promIterationPre, &s.IterationDuration, base, now)
		}
		for _, c := range f.Checks {
			if n := c.Passes + c.Fails; n > 0 {
				m.gauge(promChecksRate, "1", []*commonpb.KeyValue{kv("scenario", c.Scenario), kv("check", c.Check)}, now, float64(c.Passes)/float64(n))
			}
		}
	}
	return &metricspb.MetricsData{ResourceMetrics: []*metricspb.ResourceMetrics{{
		Resource: &resourcepb.Resource{Attributes: []*commonpb.KeyValue{kv("service.name", "loadlens"), kv("testid", runID)}},
		ScopeMetrics: []*metricspb.ScopeMetrics{{
			Scope:   &commonpb.InstrumentationScope{Name: "github.com/loadlens/loadlens"},
			Metrics: m.list,
		}},
	}}}
}

// otlpBatch gathers data points by metric name.
type otlpBatch struct {
	by   map[string]*metricspb.Metric
	list []*metricspb.Metric
}

func (b *otlpBatch) metric(name, unit string, make func() *metricspb.Metric) *metricspb.Metric {
	m, ok := b.by[name]
	if !ok {
		m = make()
		m.Name, m.Unit = name, unit
		b.by[name] = m
		b.list = append(b.list, m)
	}
	return m
}

func (b *otlpBatch) sum(name, unit string, attrs []*commonpb.KeyValue, start, now uint64, v int64) {
	m := b.metric(name, unit, func() *metricspb.Metric {
		return &metricspb.Metric{Data: &metricspb.Metric_Sum{Sum: &metricspb.Sum{
			AggregationTemporality: metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE, IsMonotonic: true}}}
	})
	s := m.GetSum()
	s.DataPoints = append(s.DataPoints, &metricspb.NumberDataPoint{Attributes: attrs, StartTimeUnixNano: start, TimeUnixNano: now,
		Value: &metricspb.NumberDataPoint_AsInt{AsInt: v}})
}

// trend adds a Trend's stats as gauges in seconds, if it has samples.
func (b *otlpBatch) trend(pre string, t *Trend, attrs []*commonpb.KeyValue, now uint64) {
	if t.Count == 0 {
		return
	}
	for _, st := range trendStats {
		b.gauge(pre+st.name, "s", attrs, now, st.of(t))
	}
}

// phase adds a connection phase's mean and maximum, if it happened.
func (b *otlpBatch) phase(pre string, p Phase, attrs []*commonpb.KeyValue, now uint64) {
	if p.Count == 0 {
		return
	}
	b.gauge(pre+"avg", "s", attrs, now, p.Avg.Seconds())
	b.gauge(pre+"max", "s", attrs, now, p.Max.Seconds())
}

func (b *otlpBatch) gauge(name, unit string, attrs []*commonpb.KeyValue, now uint64, v float64) {
	m := b.metric(name, unit, func() *metricspb.Metric {
		return &metricspb.Metric{Data: &metricspb.Metric_Gauge{Gauge: &metricspb.Gauge{}}}
	})
	g := m.GetGauge()
	g.DataPoints = append(g.DataPoints, &metricspb.NumberDataPoint{Attributes: attrs, TimeUnixNano: now,
		Value: &metricspb.NumberDataPoint_AsDouble{AsDouble: v}})
}

// histogram adds a native histogram as an OTLP exponential one: the same
// scale, with OTLP's bucket i, (base^i, base^(i+1)], being Prometheus's i+1.
func (b *otlpBatch) histogram(name string, attrs []*commonpb.KeyValue, start, now uint64, n *Native) {
	m := b.metric(name, "s", func() *metricspb.Metric {
		return &metricspb.Metric{Data: &metricspb.Metric_ExponentialHistogram{ExponentialHistogram: &metricspb.ExponentialHistogram{
			AggregationTemporality: metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE}}}
	})
	sum := n.Sum
	p := &metricspb.ExponentialHistogramDataPoint{Attributes: attrs, StartTimeUnixNano: start, TimeUnixNano: now,
		Count: n.Count, Sum: &sum, Scale: nativeSchema, ZeroCount: n.ZeroCount}
	if len(n.Buckets) > 0 {
		lo := n.Buckets[0].Index
		counts := make([]uint64, n.Buckets[len(n.Buckets)-1].Index-lo+1)
		for _, bk := range n.Buckets {
			counts[bk.Index-lo] = bk.Count
		}
		p.Positive = &metricspb.ExponentialHistogramDataPoint_Buckets{Offset: lo - 1, BucketCounts: counts}
	}
	h := m.GetExponentialHistogram()
	h.DataPoints = append(h.DataPoints, p)
}

func kv(k, v string) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
}

// withKV returns attrs plus one more, leaving attrs as it was.
func withKV(attrs []*commonpb.KeyValue, k, v string) []*commonpb.KeyValue {
	return append(attrs[:len(attrs):len(attrs)], kv(k, v))
}

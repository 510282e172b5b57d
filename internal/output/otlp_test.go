package output

import (
	"context"
	"testing"

	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestOTLPWritesWhatACollectorDecodes sends 4 seconds to an in-process
// receiver decoding the OTLP proto types, and checks the cumulative sums,
// the exponential histogram and the resource.
func TestOTLPWritesWhatACollectorDecodes(t *testing.T) {
	var rc receiver
	srv := rc.serve(t, map[string]string{"Content-Type": "application/x-protobuf"})
	sink, err := newSink(plan.Output{Kind: plan.OutOTLP, URL: srv.URL + "/v1/metrics"}, "run-1", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	fs, run := frames(2, 4)
	if err := sink.Write(context.Background(), fs); err != nil {
		t.Fatal(err)
	}
	bodies := rc.check(t)
	if len(bodies) != 1 {
		t.Fatalf("%d requests, want 1", len(bodies))
	}
	md := decodeOTLP(t, bodies[0])
	rm := md.ResourceMetrics[0]
	res := map[string]string{}
	for _, a := range rm.Resource.Attributes {
		res[a.Key] = a.Value.GetStringValue()
	}
	if res["service.name"] != "loadlens" || res["testid"] != "run-1" {
		t.Errorf("resource %v", res)
	}
	lastTime := uint64(fs[len(fs)-1].Time.UnixNano())
	byName := map[string]*metricspb.Metric{}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		byName[m.Name] = m
	}
	var reqs int64
	for _, p := range byName["k6_http_reqs"].GetSum().GetDataPoints() {
		if p.TimeUnixNano == lastTime {
			reqs += p.GetAsInt()
		}
		if p.StartTimeUnixNano != uint64(testStart.UnixNano()) {
			t.Errorf("a cumulative point starts at %d, want the run's start", p.StartTimeUnixNano)
		}
	}
	if tot := run.Total(); reqs != tot.Requests {
		t.Errorf("k6_http_reqs at the last second add to %d, want %d", reqs, tot.Requests)
	}
	if s := byName["k6_http_reqs"].GetSum(); !s.IsMonotonic || s.AggregationTemporality != metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE {
		t.Errorf("k6_http_reqs is not a cumulative monotonic sum")
	}
	hist := byName["k6_http_req_duration"].GetExponentialHistogram()
	if hist == nil || len(hist.DataPoints) != 2*4 {
		t.Fatalf("k6_http_req_duration: %v, want 8 exponential points", byName["k6_http_req_duration"])
	}
	for i, p := range hist.DataPoints[len(hist.DataPoints)-2:] {
		want := fs[len(fs)-1].Endpoints[i].Total.Duration
		var n uint64
		for j, c := range p.Positive.BucketCounts {
			n += c
			if c > 0 && !containsBucket(want.Buckets, Bucket{Index: p.Positive.Offset + int32(j) + 1, Count: c}) {
				t.Errorf("bucket %d (count %d) is not one of the native histogram's", p.Positive.Offset+int32(j), c)
			}
		}
		if p.Count != want.Count || n+p.ZeroCount != p.Count || p.Scale != nativeSchema {
			t.Errorf("endpoint %d: count %d, buckets add to %d, scale %d; want %d at scale %d", i, p.Count, n+p.ZeroCount, p.Scale, want.Count, nativeSchema)
		}
	}
	if g := byName["k6_http_req_duration_p95"].GetGauge(); g == nil || len(g.DataPoints) != 8 {
		t.Errorf("k6_http_req_duration_p95: %v", byName["k6_http_req_duration_p95"])
	}
}

func containsBucket(bs []Bucket, b Bucket) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

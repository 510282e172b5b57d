package output

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/prometheus/prompb"

	"github.com/loadlens/loadlens/internal/plan"
)

func labelsOf(ts prompb.TimeSeries) map[string]string {
	m := map[string]string{}
	for _, l := range ts.Labels {
		m[l.Name] = l.Value
	}
	return m
}

// TestPromRWWritesWhatPrometheusDecodes sends 5 seconds, in two batches, to
// an in-process receiver that decodes them as Prometheus does, and checks
// the counters, the native histograms and the labels.
func TestPromRWWritesWhatPrometheusDecodes(t *testing.T) {
	var rc receiver
	srv := rc.serve(t, map[string]string{"Content-Encoding": "snappy", "Content-Type": "application/x-protobuf", "X-Prometheus-Remote-Write-Version": "0.1.0"})
	sink, err := newSink(plan.Output{Kind: plan.OutPrometheusRW, URL: srv.URL + "/api/v1/write"}, "run-1", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	fs, run := frames(2, 5)
	for _, batch := range [][]*Frame{fs[:3], fs[3:]} {
		if err := sink.Write(context.Background(), batch); err != nil {
			t.Fatal(err)
		}
	}
	bodies := rc.check(t)
	if len(bodies) != 4 { // floats and histograms, twice
		t.Fatalf("%d requests, want 4", len(bodies))
	}
	names := PromSeriesNames()
	last := map[string]float64{}           // the last value of each series, by its labels
	hists := map[string]prompb.Histogram{} // the last of each endpoint
	for _, b := range bodies {
		for _, ts := range decodeRW(t, b).Timeseries {
			l := labelsOf(ts)
			if !slices.Contains(names, l["__name__"]) {
				t.Errorf("series %q is not in PromSeriesNames", l["__name__"])
			}
			for name := range l {
				if !slices.Contains([]string{"__name__", "testid", "scenario", "endpoint", "name", "method", "status", "expected_response", "kind", "check"}, name) {
					t.Errorf("label %q on %s: the labels are few and bounded", name, l["__name__"])
				}
			}
			if l["testid"] != "run-1" {
				t.Errorf("%s: testid %q", l["__name__"], l["testid"])
			}
			if l["__name__"] == promReqs && l["expected_response"] != fmt.Sprint(l["status"] == "ok") {
				t.Errorf("%v: expected_response disagrees with status", l)
			}
			for i := 1; i < len(ts.Samples); i++ {
				if ts.Samples[i].Timestamp <= ts.Samples[i-1].Timestamp {
					t.Errorf("%v: samples out of order", l)
				}
			}
			key := strings.Join([]string{l["__name__"], l["endpoint"], l["status"], l["kind"]}, "|")
			if n := len(ts.Samples); n > 0 {
				last[key] = ts.Samples[n-1].Value
			}
			if l["__name__"] == promDurationHist {
				hists[l["endpoint"]] = ts.Histograms[len(ts.Histograms)-1]
			}
		}
	}
	for i, e := range run.Endpoints {
		ep := run.Layout.Endpoints[i].Name
		if got := last[promReqs+"|"+ep+"|ok|"] + last[promReqs+"|"+ep+"|5xx|"]; got != float64(e.Requests) {
			t.Errorf("%s: %s adds to %v, want %d", ep, promReqs, got, e.Requests)
		}
		if got := last[promDataReceived+"|"+ep+"||"]; got != float64(e.Received) {
			t.Errorf("%s: received %v, want %d", ep, got, e.Received)
		}
	}
	for _, name := range []string{promChecksRate, promWaitingPre + "p95", promIterationPre + "p95"} {
		if _, ok := last[name+"|||"]; !ok && name != promWaitingPre+"p95" {
			t.Errorf("no %s series", name)
		}
	}
	if _, ok := last[promWaitingPre+"p95|"+run.Layout.Endpoints[0].Name+"||"]; !ok {
		t.Errorf("no %s series", promWaitingPre+"p95")
	}
	if got := last[promIterations+"|||"]; got != 50 {
		t.Errorf("%s = %v, want 50", promIterations, got)
	}
	if got := last[promDropped+"|||"]; got != 2 {
		t.Errorf("%s = %v, want 2", promDropped, got)
	}
	if len(hists) != len(run.Endpoints) {
		t.Fatalf("%d native histograms, want one per endpoint", len(hists))
	}
	for i, info := range run.Layout.Endpoints {
		h := hists[info.Name]
		want := fs[len(fs)-1].Endpoints[i].Total.Duration
		if got := decodeNative(h); !slices.Equal(got, want.Buckets) || h.GetCountInt() != want.Count || h.Schema != nativeSchema {
			t.Errorf("histogram %d: decoded %v (count %d), want %v (count %d)", i, got, h.GetCountInt(), want.Buckets, want.Count)
		}
	}
}

// decodeNative reads spans and deltas back into buckets, as Prometheus does.
func decodeNative(h prompb.Histogram) []Bucket {
	var out []Bucket
	idx, count, d := int32(0), int64(0), 0
	for _, s := range h.PositiveSpans {
		idx += s.Offset
		for range s.Length {
			count += h.PositiveDeltas[d]
			d++
			out = append(out, Bucket{Index: idx, Count: uint64(count)})
			idx++
		}
	}
	return out
}

// TestPromRWWithoutNativeHistograms: a Prometheus started without native
// histograms refuses them; the counts and gauges still arrive, the second
// is delivered, one warning says how to have the histograms, and they are
// not sent again.
func TestPromRWWithoutNativeHistograms(t *testing.T) {
	var floats, hists atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		req := decodeRW(t, b)
		if len(req.Timeseries) > 0 && len(req.Timeseries[0].Histograms) > 0 {
			hists.Add(1)
			http.Error(w, "native histograms are disabled", http.StatusInternalServerError) // Prometheus 2.42's answer
			return
		}
		floats.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	var warnings []string
	sink, err := newSink(plan.Output{Kind: plan.OutPrometheusRW, URL: srv.URL}, "r", nil, func(f string, a ...any) { warnings = append(warnings, fmt.Sprintf(f, a...)) })
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	fs, _ := frames(1, 3)
	for _, f := range fs {
		if err := sink.Write(context.Background(), []*Frame{f}); err != nil {
			t.Errorf("second %d: %v; the counts arrived, so it is delivered", f.Second, err)
		}
	}
	if floats.Load() != 3 || hists.Load() != 1 {
		t.Errorf("%d float requests (want 3), %d histogram requests (want 1: not sent again once refused)", floats.Load(), hists.Load())
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "--enable-feature=native-histograms") {
		t.Errorf("warnings %q, want one naming the flag", warnings)
	}
}

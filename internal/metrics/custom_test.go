package metrics

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// customLayout has two scenarios adding to three custom metrics: a counter
// and a trend in both, a rate in the first only.
var customLayout = sample.Layout{
	Scenarios: []sample.ScenarioInfo{{Name: "a", Model: "vus"}, {Name: "b", Model: "vus"}},
	Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}},
	Metrics: []sample.MetricInfo{
		{Scenario: 0, Name: "orders", Kind: sample.CounterMetric},
		{Scenario: 0, Name: "in_stock", Kind: sample.RateMetric},
		{Scenario: 0, Name: "cart", Kind: sample.TrendMetric},
		{Scenario: 1, Name: "orders", Kind: sample.CounterMetric},
		{Scenario: 1, Name: "cart", Kind: sample.TrendMetric},
	},
}

var customDecl = []threshold.Custom{
	{Name: "orders", Kind: threshold.Counter},
	{Name: "in_stock", Kind: threshold.RateKind},
	{Name: "cart", Kind: threshold.Trend},
}

// TestCustomMetrics: values added by VUs on several shards reach a
// snapshot, survive the wire format (version 7), add up in the whole-run
// model and are judged by thresholds in k6's meaning of each kind, with
// the scenario filter; values that are not numbers are counted apart.
func TestCustomMetrics(t *testing.T) {
	rec := NewRecorder(customLayout, 2)
	for i := range 100 {
		s := rec.Sink(i)
		s.Add(0, 200*time.Millisecond, 2)            // orders in a: 200
		s.Add(1, 200*time.Millisecond, float64(i%4)) // in_stock: 75 of 100 true
		s.Add(2, 200*time.Millisecond, float64(i+1)) // cart in a: 1..100
		s.Add(3, 300*time.Millisecond, 0.5)          // orders in b: 50
		s.Add(4, 300*time.Millisecond, 1000)         // cart in b: 1000 each
		s.Add(2, 300*time.Millisecond, math.NaN())   // not a number: not recorded
	}
	b, err := rec.Collect(0).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if b[3] != customVersion {
		t.Errorf("a snapshot with custom metrics is written as version %d, want %d", b[3], customVersion)
	}
	var back Snapshot
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := back.CheckLayout(customLayout); err != nil {
		t.Fatal(err)
	}
	if got := back.Metrics[2].Invalid; got != 100 {
		t.Errorf("cart in a: %d invalid values, want 100", got)
	}
	run := NewRun(customLayout)
	run.Add(&back)
	run.SetElapsed(10 * time.Second)
	tests := []struct{ key, expr, want string }{
		{"orders", "count==250", "pass"},
		{"orders", "rate==25", "pass"}, // 250 over 10 s
		{"orders{scenario:b}", "count==50", "pass"},
		{"in_stock", "rate==0.75", "pass"},
		{"in_stock", "rate>0.8", "fail"},
		{"in_stock{scenario:b}", "rate>0", "fail: no data: no value added"},
		{"cart{scenario:a}", "p(50)<=50.1", "pass"},
		{"cart{scenario:a}", "max<100", "fail"},
		{"cart{scenario:a}", "count==100", "pass"},
		{"cart", "min>=1", "pass"},
		{"cart", "p(95)<999", "fail"}, // half the values are 1000
	}
	for _, tt := range tests {
		th, err := threshold.NewIn(tt.key, tt.expr, customDecl)
		if err != nil {
			t.Fatalf("%s: %v", tt.key, err)
		}
		res := run.Evaluate(&th)
		got := "fail"
		if res.Pass {
			got = "pass"
		}
		if res.Reason != "" {
			got += ": " + res.Reason
		}
		if got != tt.want {
			t.Errorf("%s %s: %s (observed %v), want %s", tt.key, tt.expr, got, res.Observed, tt.want)
		}
	}
}

// TestSnapshotWithoutCustomMetricsKeepsItsVersion: a test without custom
// metrics writes the format it wrote before they existed.
func TestSnapshotWithoutCustomMetricsKeepsItsVersion(t *testing.T) {
	b, err := NewRecorder(groupLayout, 1).Collect(0).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if b[3] != 5 {
		t.Errorf("a test with groups and no custom metrics: version %d, want 5", b[3])
	}
}

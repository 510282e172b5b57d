package metrics

import (
	"math"
	"testing"

	"github.com/loadlens/loadlens/internal/threshold"
)

func TestObserve(t *testing.T) {
	run := threeSeconds() // see its doc comment for the figures
	tag := func(k, v string) []threshold.Tag { return []threshold.Tag{{Key: k, Value: v}} }
	tests := []struct {
		name    string
		metric  string
		filter  []threshold.Tag
		agg     threshold.AggKind
		p       float64
		want    float64
		hasData bool
	}{
		{"duration p95 of all endpoints", "http_req_duration", nil, threshold.Percentile, 95, 100, true},
		{"duration p95 of a scenario", "http_req_duration", tag("scenario", "browse"), threshold.Percentile, 95, 30, true},
		{"duration avg", "http_req_duration", tag("scenario", "browse"), threshold.Avg, 0, 1400.0 / 60, true},
		{"duration min", "http_req_duration", tag("endpoint", "GET /"), threshold.Min, 0, 10, true},
		{"duration max", "http_req_duration", tag("name", "GET /"), threshold.Max, 0, 30, true},
		{"duration med", "http_req_duration", tag("endpoint", "GET /"), threshold.Med, 0, 20, true},
		{"duration count", "http_req_duration", nil, threshold.Count, 0, 65, true},
		{"duration by method, any case", "http_req_duration", tag("method", "post"), threshold.Percentile, 50, 100, true},
		{"duration of an idle endpoint", "http_req_duration", tag("endpoint", "GET /item/{id}"), threshold.Percentile, 95, 0, false},
		{"duration of an unknown endpoint", "http_req_duration", tag("endpoint", "nope"), threshold.Percentile, 95, 0, false},
		{"duration with an unsupported filter key", "http_req_duration", tag("status", "200"), threshold.Percentile, 95, 0, false},
		{"duration rate is not a trend aggregation", "http_req_duration", nil, threshold.Rate, 0, 0, false},
		{"waiting max", "http_req_waiting", tag("scenario", "buy"), threshold.Max, 0, 1, true},
		{"connecting avg", "http_req_connecting", nil, threshold.Avg, 0, 3, true},
		{"connecting max", "http_req_connecting", nil, threshold.Max, 0, 4, true},
		{"connecting count", "http_req_connecting", nil, threshold.Count, 0, 6, true},
		{"connecting percentile is not kept", "http_req_connecting", nil, threshold.Percentile, 95, 0, false},
		{"tls without handshakes", "http_req_tls_handshaking", nil, threshold.Avg, 0, 0, false},
		{"failed rate", "http_req_failed", nil, threshold.Rate, 0, 2.0 / 65, true},
		{"failed rate of a kind", "http_req_failed", tag("kind", "timeout"), threshold.Rate, 0, 2.0 / 65, true},
		{"failed rate of a kind that never happened", "http_req_failed", tag("kind", "dns"), threshold.Rate, 0, 0, true},
		{"failed rate of a scenario", "http_req_failed", tag("scenario", "buy"), threshold.Rate, 0, 2.0 / 5, true},
		{"failed rate of an unknown kind", "http_req_failed", tag("kind", "bogus"), threshold.Rate, 0, 0, false},
		{"failed count is not a rate aggregation", "http_req_failed", nil, threshold.Count, 0, 0, false},
		{"reqs count", "http_reqs", nil, threshold.Count, 0, 65, true},
		{"reqs rate per second", "http_reqs", nil, threshold.Rate, 0, 65.0 / 3, true},
		{"reqs count by method", "http_reqs", tag("method", "GET"), threshold.Count, 0, 60, true},
		{"reqs count of a kind", "http_reqs", tag("kind", "timeout"), threshold.Count, 0, 2, true},
		{"reqs count of ok responses", "http_reqs", tag("kind", "ok"), threshold.Count, 0, 63, true},
		{"data sent", "data_sent", nil, threshold.Count, 0, 6000, true},
		{"data received rate", "data_received", nil, threshold.Rate, 0, 20000, true},
		{"checks rate", "checks", nil, threshold.Rate, 0, 0.9, true},
		{"checks of a named check", "checks", tag("check", "status is 200"), threshold.Rate, 0, 0.9, true},
		{"checks by endpoint", "checks", tag("endpoint", "GET /"), threshold.Rate, 0, 0.9, true},
		{"checks never evaluated", "checks", tag("check", "added"), threshold.Rate, 0, 0, false},
		{"checks with an unsupported key", "checks", tag("kind", "ok"), threshold.Rate, 0, 0, false},
		{"iterations count", "iterations", nil, threshold.Count, 0, 60, true},
		{"iterations rate", "iterations", tag("scenario", "browse"), threshold.Rate, 0, 20, true},
		{"iterations of a scenario without any count 0", "iterations", tag("scenario", "buy"), threshold.Count, 0, 0, true},
		{"dropped count", "dropped_iterations", nil, threshold.Count, 0, 3, true},
		{"iteration duration p90", "iteration_duration", nil, threshold.Percentile, 90, 500, true},
		{"iteration duration of an idle scenario", "iteration_duration", tag("scenario", "buy"), threshold.Avg, 0, 0, false},
		{"scheduler lag max", "scheduler_lag", nil, threshold.Max, 0, 3, true},
		{"scheduler lag avg", "scheduler_lag", tag("scenario", "browse"), threshold.Avg, 0, 2, true},
		{"vus value is the last", "vus", nil, threshold.Value, 0, 3, true},
		{"vus min over seconds", "vus", nil, threshold.Min, 0, 3, true},
		{"vus max over seconds", "vus", nil, threshold.Max, 0, 7, true},
		{"vus of a scenario", "vus", tag("scenario", "browse"), threshold.Value, 0, 2, true},
		{"vus min of a scenario", "vus", tag("scenario", "browse"), threshold.Min, 0, 2, true},
		{"vus max of a scenario", "vus", tag("scenario", "browse"), threshold.Max, 0, 6, true},
		{"vus_max value", "vus_max", nil, threshold.Value, 0, 9, true},
		{"vus_max of a scenario", "vus_max", tag("scenario", "browse"), threshold.Value, 0, 8, true},
		{"vus_max min is not kept", "vus_max", nil, threshold.Min, 0, 0, false},
		{"unknown metric", "http_req_blocked", nil, threshold.Avg, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := &threshold.Threshold{Metric: tt.metric, Filter: tt.filter, Agg: tt.agg, P: tt.p}
			got, hasData := run.Observe(th)
			if hasData != tt.hasData {
				t.Fatalf("hasData = %v, want %v (value %v)", hasData, tt.hasData, got)
			}
			// Times carry the histograms' 3-digit precision.
			if math.Abs(got-tt.want) > math.Abs(tt.want)/1000+1e-9 {
				t.Errorf("value = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestObserveEmptyRun(t *testing.T) {
	run := NewRun(testLayout())
	for _, metric := range []string{"http_req_duration", "http_req_failed", "http_reqs", "checks", "vus", "vus_max", "iterations"} {
		agg := map[string]threshold.AggKind{"http_req_failed": threshold.Rate, "checks": threshold.Rate, "vus": threshold.Value, "vus_max": threshold.Value}[metric]
		if _, hasData := run.Observe(&threshold.Threshold{Metric: metric, Agg: agg}); hasData {
			t.Errorf("%s: hasData on a run without seconds", metric)
		}
	}
}

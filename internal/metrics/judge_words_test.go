package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// TestNoDataSaysWhy pins the reasons an outside trial found bare or
// pointing the wrong way: scheduler_lag in a closed model ("no data"), and a
// TLS threshold on a plain-http target that is down ("no completed
// request", though no request could ever have had a handshake).
func TestNoDataSaysWhy(t *testing.T) {
	tests := []struct {
		name, model string
		plain       bool
		kind        sample.Kind
		key, expr   string
		want        string
	}{
		{"scheduler_lag in a closed model", "vus", true, sample.OK, "scheduler_lag", "p(99)<10ms",
			"no data: measured only in the open model (arrival-rate)"},
		{"scheduler_lag of fixed iterations", "iterations", true, sample.OK, "scheduler_lag", "p(99)<10ms",
			"no data: measured only in the open model (arrival-rate)"},
		{"plain http, target down", "vus", true, sample.ConnRefused, "http_req_tls_handshaking", "avg<100ms",
			"no data: no TLS handshake (plain http)"},
		{"plain http, target up", "vus", true, sample.OK, "http_req_tls_handshaking", "avg<100ms",
			"no data: no TLS handshake (plain http)"},
		{"https, target down: no completed request", "vus", false, sample.ConnRefused, "http_req_tls_handshaking", "avg<100ms",
			"no completed request (3 sent)"},
		{"https, every connection reused", "vus", false, sample.OK, "http_req_tls_handshaking", "avg<100ms",
			"no data: no TLS handshake"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: tt.model}},
				Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET", Plain: tt.plain}}}
			rec := NewRecorder(l, 1)
			sink := rec.Sink(0)
			for range 3 {
				r := sample.Request{Endpoint: 0, End: 500 * time.Millisecond, Duration: time.Millisecond, Kind: tt.kind}
				if tt.kind == sample.OK {
					r.Status = 200
				}
				sink.Request(&r)
			}
			run := NewRun(l)
			run.Add(rec.Collect(0))
			th, err := threshold.New(tt.key, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got := run.Evaluate(&th); got.Pass || got.Reason != tt.want {
				t.Errorf("Evaluate = pass %v, reason %q; want a failure, %q", got.Pass, got.Reason, tt.want)
			}
		})
	}
}

package estimaterun

import (
	"testing"

	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// runOf is an empty run with an endpoint of each protocol ("" for HTTP).
func runOf(protocols ...string) *metrics.Run {
	var layout sample.Layout
	for _, p := range protocols {
		layout.Endpoints = append(layout.Endpoints, sample.EndpointInfo{Name: p + " /x", Protocol: p})
	}
	return metrics.NewRun(layout)
}

// TestLatencyOf: a run's seconds are judged on its SLO's latency, else on
// what it measured: a request's duration when it sent HTTP requests, a
// gRPC call's, a WebSocket session's reply time when it awaited replies,
// else its time to the first message; never a session's length.
func TestLatencyOf(t *testing.T) {
	withReply := func(r *metrics.Run, e int) *metrics.Run {
		h := metrics.NewHist()
		h.Record(5e6)
		r.Endpoints[e].Facts = &metrics.FactFigures{Sessions: 1, Reply: h}
		return r
	}
	slo, err := threshold.New("ws_reply_time", "p(95) < 100ms")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  *metrics.Run
		defs []threshold.Threshold
		want string
	}{
		{"the SLO's", runOf("", "ws"), []threshold.Threshold{slo}, "ws_reply_time"},
		{"HTTP", runOf(""), nil, estimate.RequestDuration},
		{"HTTP beside sessions", runOf("ws", ""), nil, estimate.RequestDuration},
		{"gRPC", runOf("grpc"), nil, "grpc_req_duration"},
		{"WebSocket with replies", withReply(runOf("ws"), 0), nil, "ws_reply_time"},
		{"WebSocket without", runOf("ws"), nil, "ws_time_to_first_msg"},
		{"SSE", runOf("sse"), nil, "sse_time_to_first_msg"},
		{"no endpoint", runOf(), nil, estimate.RequestDuration},
	}
	for _, tc := range tests {
		if got := estimate.LatencyOf(tc.run, tc.defs); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

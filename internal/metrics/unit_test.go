package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// protocolRun records outcomes on testLayout with every endpoint of one
// protocol ("" HTTP, "grpc", "ws"), each sample 100ms as in runOf.
func protocolRun(protocol string, outcomes ...outcome) *Run {
	layout := testLayout()
	for i := range layout.Endpoints {
		layout.Endpoints[i].Protocol = protocol
	}
	rec := NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for _, o := range outcomes {
		for range o.n {
			r := sample.Request{Endpoint: o.endpoint, End: 500 * time.Millisecond, Duration: 100 * time.Millisecond, Kind: o.kind}
			if protocol != "" {
				r.Facts = &sample.Facts{MsgsSent: 1}
			}
			sink.Request(&r)
		}
	}
	run := NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(time.Second)
	return run
}

// TestLatencyReasonsSayTheRunsUnit: a latency threshold that cannot pass
// says why in what the run counts: requests for HTTP (as before), calls for
// a gRPC-only run, sessions for a WebSocket-only run (on their protocol's
// <protocol>_req_duration, and on iteration_duration); http_req_failed
// with nothing sent names what was not.
func TestLatencyReasonsSayTheRunsUnit(t *testing.T) {
	failed := func(p string) *Run { return protocolRun(p, outcome{0, sample.Timeout, 3}) }
	none := func(p string) *Run { return protocolRun(p) }
	some := func(p string) *Run {
		return protocolRun(p, outcome{0, sample.HTTP5xx, 6}, outcome{0, sample.OK, 94})
	}
	tests := []struct {
		protocol, key, expr string
		run                 func(string) *Run
		want                string
	}{
		{"", "http_req_duration", "p(95)<500ms", failed, "no completed request (3 sent)"},
		{"grpc", "grpc_req_duration", "p(95)<500ms", failed, "no completed call (3 sent)"},
		{"ws", "ws_req_duration", "p(95)<500ms", failed, "no completed session (3 sent)"},
		{"", "http_req_duration", "p(95)<500ms", some, "6 of 100 requests failed (6.00%): more than the 5.00% p(95) leaves out; p(95)=100ms over all 100 requests, failed ones included"},
		{"grpc", "grpc_req_duration", "p(95)<500ms", some, "6 of 100 calls failed (6.00%): more than the 5.00% p(95) leaves out; p(95)=100ms over all 100 calls, failed ones included"},
		{"ws", "ws_req_duration", "p(95)<500ms", some, "6 of 100 sessions failed (6.00%): more than the 5.00% p(95) leaves out; p(95)=100ms over all 100 sessions, failed ones included"},
		{"", "iteration_duration{scenario:buy}", "p(95)<500ms", failed, "no request sent: no iteration to judge"},
		{"ws", "iteration_duration{scenario:buy}", "p(95)<500ms", failed, "no session sent: no iteration to judge"},
		{"", "http_req_failed", "rate<0.01", none, "no data: no request sent"},
		{"grpc", "http_req_failed", "rate<0.01", none, "no data: no call sent"},
		{"ws", "http_req_failed", "rate<0.01", none, "no data: no session sent"},
	}
	for _, tt := range tests {
		t.Run(tt.protocol+" "+tt.key+" "+tt.want, func(t *testing.T) {
			th, err := threshold.New(tt.key, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.run(tt.protocol).Evaluate(&th); got.Pass || got.Reason != tt.want {
				t.Errorf("Evaluate = %+v, want a failure saying %q", got, tt.want)
			}
		})
	}
}

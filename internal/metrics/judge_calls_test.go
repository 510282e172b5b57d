package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// callsRun records outcomes on testLayout with endpoint 1 a gRPC method:
// each call and request takes 100ms, as in runOf.
func callsRun(outcomes ...outcome) *Run {
	layout := testLayout()
	layout.Endpoints[1].Protocol = "grpc"
	rec := NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for _, o := range outcomes {
		for range o.n {
			r := sample.Request{Endpoint: o.endpoint, End: 500 * time.Millisecond, Duration: 100 * time.Millisecond, Kind: o.kind}
			if layout.Endpoints[o.endpoint].Protocol != "" {
				code := 0
				if o.kind != sample.OK {
					code = int(o.kind-sample.GRPCCancelled) + 1
				}
				r.Facts = &sample.Facts{MsgsSent: 1, Code: code}
			}
			sink.Request(&r)
		}
	}
	run := NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(time.Second)
	return run
}

// TestCallLatencyJudgesFailedCalls: grpc_req_duration, k6's name for a
// gRPC call's duration, follows http_req_duration's rules on failures. A
// server shedding load with fast RESOURCE_EXHAUSTED passed p(95) < 500ms
// before: the failed calls' microseconds were its latency.
func TestCallLatencyJudgesFailedCalls(t *testing.T) {
	unavailable := sample.KindOfGRPC(14)
	exhausted := sample.KindOfGRPC(8)
	tests := []struct {
		name       string
		key, expr  string
		run        *Run
		wantPass   bool
		wantReason string
	}{
		{"more calls failed than p(95) leaves out", "grpc_req_duration", "p(95)<500ms",
			callsRun(outcome{1, exhausted, 6}, outcome{1, sample.OK, 94}), false, "6 of 100 calls failed (6.00%): more than the 5.00% p(95) leaves out; p(95)=100ms over all 100 calls, failed ones included"},
		{"as many as it leaves out", "grpc_req_duration", "p(95)<500ms",
			callsRun(outcome{1, exhausted, 5}, outcome{1, sample.OK, 95}), true, ""},
		{"every call failed", "grpc_req_duration", "p(95)<500ms",
			callsRun(outcome{1, unavailable, 4}), false, "every call failed (4 sent): no latency to judge"},
		{"every call ran past its deadline", "grpc_req_duration", "p(95)<500ms",
			callsRun(outcome{1, sample.GRPCDeadlineExceeded, 3}), false, "no completed call (3 sent)"},
		{"HTTP requests' failures are not the calls'", "grpc_req_duration", "p(95)<500ms",
			callsRun(outcome{0, sample.HTTP5xx, 50}, outcome{1, sample.OK, 10}), true, ""},
		{"no call made", "grpc_req_duration", "p(95)<500ms",
			callsRun(outcome{0, sample.OK, 10}), false, "no call sent"},
		{"avg judges every call", "grpc_req_duration", "avg<500ms",
			callsRun(outcome{1, unavailable, 50}, outcome{1, sample.OK, 50}), true, ""},
		{"a count counts calls", "grpc_req_duration", "count>3",
			callsRun(outcome{1, unavailable, 4}), true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, err := threshold.New(tt.key, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.run.Evaluate(&th); got.Pass != tt.wantPass || got.Reason != tt.wantReason {
				t.Errorf("Evaluate = %+v, want pass %v reason %q", got, tt.wantPass, tt.wantReason)
			}
		})
	}
}

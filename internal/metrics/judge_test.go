package metrics

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// outcome is n requests to one endpoint of testLayout ending with a kind.
type outcome struct {
	endpoint int32
	kind     sample.Kind
	n        int
}

// runOf records the outcomes, each request taking 100ms, over one second.
func runOf(outcomes ...outcome) *Run {
	rec := NewRecorder(testLayout(), 1)
	sink := rec.Sink(0)
	for _, o := range outcomes {
		for range o.n {
			r := sample.Request{Endpoint: o.endpoint, End: 500 * time.Millisecond, Duration: 100 * time.Millisecond,
				Waiting: 100 * time.Millisecond, Kind: o.kind}
			switch o.kind {
			case sample.OK:
				r.Status = 200
			case sample.HTTP5xx:
				r.Status = 503
			case sample.HTTP4xx:
				r.Status = 404
			case sample.Redirect:
				r.Status = 302
			}
			sink.Request(&r)
		}
	}
	run := NewRun(testLayout())
	run.Add(rec.Collect(0))
	run.SetElapsed(time.Second)
	return run
}

func TestEvaluateFailsLatencyWithoutAResponse(t *testing.T) {
	tests := []struct {
		name       string
		key, expr  string
		run        *Run
		wantPass   bool
		wantReason string
	}{
		{"every request timed out", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.Timeout, 60}), false, "no completed request (60 sent)"},
		{"thousands are grouped", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.Timeout, 52923}), false, "no completed request (52,923 sent)"},
		{"every request cut off by the end of the run", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.Interrupted, 7}), false, "no completed request (7 sent)"},
		{"refused, reset, dns, tls and other", "http_req_duration", "avg<1s",
			runOf(outcome{0, sample.ConnRefused, 1}, outcome{1, sample.ConnReset, 1}, outcome{2, sample.DNS, 1},
				outcome{0, sample.TLS, 1}, outcome{1, sample.Other, 1}), false, "no completed request (5 sent)"},
		{"waiting is latency too", "http_req_waiting", "max<1s",
			runOf(outcome{0, sample.Timeout, 3}), false, "no completed request (3 sent)"},
		{"a filter whose requests all failed", `http_req_duration{endpoint:"GET /"}`, "p(99)<1s",
			runOf(outcome{0, sample.ConnRefused, 4}, outcome{2, sample.OK, 10}), false, "no completed request (4 sent)"},
		{"one answer among the failures is evidence", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.Timeout, 59}, outcome{0, sample.OK, 1}), true, ""},
		{"error statuses are answers", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.HTTP5xx, 5}, outcome{1, sample.HTTP4xx, 5}), true, ""},
		{"a redirect that was not followed is an answer", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.Redirect, 5}), true, ""},
		{"nothing sent: no data passes", "http_req_duration", "p(95)<500ms", runOf(), true, ""},
		{"a filter that matched nothing sent passes", `http_req_duration{endpoint:"GET /item/{id}"}`, "p(95)<500ms",
			runOf(outcome{0, sample.Timeout, 3}), true, ""},
		{"a latency count counts requests", "http_req_duration", "count>2",
			runOf(outcome{0, sample.Timeout, 3}), true, ""},
		{"the failure rate fails on its own value", "http_req_failed", "rate<0.01",
			runOf(outcome{0, sample.Timeout, 3}), false, ""},
		{"a comparison that fails keeps its value", "http_req_duration", "p(95)<50ms",
			runOf(outcome{0, sample.OK, 3}), false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, err := threshold.New(tt.key, tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			got := tt.run.Evaluate(&th)
			if got.Pass != tt.wantPass || got.Reason != tt.wantReason || got.Key != tt.key || got.Expr != tt.expr {
				t.Errorf("Evaluate = %+v, want pass %v reason %q", got, tt.wantPass, tt.wantReason)
			}
		})
	}
}

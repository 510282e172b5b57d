package metrics

import (
	"strings"
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

// TestEvaluateFailsWhatItCannotJudge: a dead, failing or silent target never
// passes a threshold (issue: dead targets passed latency-only gates).
func TestEvaluateFailsWhatItCannotJudge(t *testing.T) {
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
		{"every request failed with a status", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.HTTP5xx, 5}, outcome{1, sample.HTTP4xx, 5}), false, "every request failed (10 sent): no latency to judge"},
		{"a redirect that was not followed is an answer, and a failure", "http_req_duration", "avg<500ms",
			runOf(outcome{0, sample.Redirect, 5}), false, "every request failed (5 sent): no latency to judge"},
		{"every request failed fails waiting", "http_req_waiting", "avg<1s",
			runOf(outcome{0, sample.HTTP5xx, 3}), false, "every request failed (3 sent): no latency to judge"},
		{"every request failed fails connecting", "http_req_connecting", "avg<1s",
			runOf(outcome{0, sample.HTTP5xx, 3}), false, "every request failed (3 sent): no latency to judge"},
		{"a dead target fails connecting", "http_req_connecting", "avg<1s",
			runOf(outcome{0, sample.ConnRefused, 3}), false, "no completed request (3 sent)"},
		{"a dead target fails tls", "http_req_tls_handshaking", "max<1s",
			runOf(outcome{0, sample.TLS, 3}), false, "no completed request (3 sent)"},
		{"a dead target fails iteration_duration", "iteration_duration", "p(95)<1s",
			runOf(outcome{0, sample.ConnRefused, 3}), false, "no completed request (3 sent)"},
		{"iteration_duration of a scenario whose requests all failed", `iteration_duration{scenario:"buy"}`, "avg<1s",
			runOf(outcome{2, sample.HTTP5xx, 3}, outcome{0, sample.OK, 10}), false, "every request failed (3 sent): no latency to judge"},
		{"iteration_duration with no request sent", "iteration_duration", "avg<1s",
			runOf(), false, "no request sent: no iteration to judge"},
		{"more failures than p(95) leaves out", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.ConnRefused, 6}, outcome{0, sample.OK, 94}), false, "6 of 100 requests failed (6.00%): more than the 5.00% p(95) leaves out; p(95)=100ms over all 100 requests, failed ones included"},
		{"as many failures as p(95) leaves out", "http_req_duration", "p(95)<500ms",
			runOf(outcome{0, sample.ConnRefused, 5}, outcome{0, sample.OK, 95}), true, ""},
		{"med leaves out half", "http_req_waiting", "med<500ms",
			runOf(outcome{0, sample.HTTP5xx, 51}, outcome{0, sample.OK, 49}), false, "51 of 100 requests failed (51.00%): more than the 50.00% med leaves out; med=100ms over all 100 requests, failed ones included"},
		{"max leaves out none", "http_req_duration", "max<1s",
			runOf(outcome{0, sample.Timeout, 1}, outcome{0, sample.OK, 99}), false, "1 of 100 requests failed (1.00%): more than the 0.00% max leaves out; max=100ms over all 100 requests, failed ones included"},
		{"avg is judged on every request", "http_req_duration", "avg<500ms",
			runOf(outcome{0, sample.ConnRefused, 50}, outcome{0, sample.OK, 50}), true, ""},
		{"the budget is per filter", `http_req_duration{endpoint:"GET /"}`, "p(99)<500ms",
			runOf(outcome{0, sample.OK, 100}, outcome{1, sample.ConnRefused, 50}), true, ""},
		{"one success among the failures is evidence for avg", "http_req_duration", "avg<500ms",
			runOf(outcome{0, sample.Timeout, 59}, outcome{0, sample.OK, 1}), true, ""},
		{"nothing sent fails", "http_req_duration", "p(95)<500ms", runOf(), false, "no request sent"},
		{"a filter that matched nothing sent fails", `http_req_duration{endpoint:"GET /item/{id}"}`, "p(95)<500ms",
			runOf(outcome{0, sample.Timeout, 3}), false, "no request sent"},
		{"a latency count counts requests", "http_req_duration", "count>2",
			runOf(outcome{0, sample.Timeout, 3}), true, ""},
		{"the failure rate fails on its own value", "http_req_failed", "rate<0.01",
			runOf(outcome{0, sample.Timeout, 3}), false, ""},
		{"a failure rate with nothing sent has no data", "http_req_failed", "rate<0.01", runOf(), false, "no data: no request sent"},
		{"checks that never ran have no data", "checks", "rate>0.99", runOf(outcome{0, sample.OK, 3}), false, "no data: no check ran"},
		{"tls without a handshake has no data", "http_req_tls_handshaking", "avg<1s", runOf(outcome{0, sample.OK, 3}), false, "no data: no TLS handshake"},
		{"iteration_duration without an iteration has no data", "iteration_duration", "avg<1s", runOf(outcome{0, sample.OK, 3}), false, "no data: no iteration completed"},
		{"a counter at 0 is data", "dropped_iterations", "count<1", runOf(outcome{0, sample.OK, 3}), true, ""},
		{"an endpoint never requested counts 0", `http_reqs{endpoint:"GET /item/{id}"}`, "count<1", runOf(outcome{0, sample.OK, 3}), true, ""},
		{"no request sent fails a count above 0 on its value", "http_reqs", "count>0", runOf(), false, ""},
		{"scheduler_lag judges the generator, not the target", "scheduler_lag", "p(99)<1s",
			runOf(outcome{0, sample.ConnRefused, 3}), false, "no data"},
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
			if nothing := strings.HasPrefix(got.Reason, "no data") || strings.HasPrefix(got.Reason, "no request sent"); got.NothingYet != nothing {
				t.Errorf("NothingYet = %v for reason %q", got.NothingYet, got.Reason)
			}
		})
	}
}

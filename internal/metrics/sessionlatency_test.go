package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// mixedRun records one second of a GET (10 of 2 ms), an SSE session
// endpoint (2 held 2 s, one of them failed) and a gRPC call endpoint
// (4 of 30 ms), keeping the endpoints whose index keep names.
func mixedRun(keep ...int) *Run {
	all := []sample.EndpointInfo{{Name: "GET /", Method: "GET"}, {Name: "SSE /events", Method: "GET", Protocol: "sse", Session: true},
		{Name: "GRPC a.B/C", Method: "GRPC", Protocol: "grpc"}}
	type rec struct {
		n    int
		d    time.Duration
		kind sample.Kind
	}
	recs := [][]rec{{{10, 2 * time.Millisecond, sample.OK}}, {{1, 2 * time.Second, sample.OK}, {1, 2 * time.Second, sample.Timeout}},
		{{4, 30 * time.Millisecond, sample.OK}}}
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "vus"}}}
	for _, i := range keep {
		l.Endpoints = append(l.Endpoints, all[i])
	}
	r := NewRecorder(l, 1)
	sink := r.Sink(0)
	for id, i := range keep {
		for _, x := range recs[i] {
			for range x.n {
				s := sample.Request{Endpoint: int32(id), End: 500 * time.Millisecond, Duration: x.d, Waiting: x.d / 2, Kind: x.kind}
				if l.Endpoints[id].Protocol != "" {
					s.Facts = &sample.Facts{Session: x.d}
				}
				sink.Request(&s)
			}
		}
	}
	run := NewRun(l)
	run.Add(r.Collect(0))
	run.SetElapsed(time.Second)
	return run
}

// TestSessionsAreNoRequestLatency: a session's length stays out of
// http_req_duration and the run's merged latency, while it counts as what
// it is (trial s35, defect 5: a 2 ms GET beside a 2 s SSE session failed
// http_req_duration p(95)<500ms with 2.00 s).
func TestSessionsAreNoRequestLatency(t *testing.T) {
	tests := []struct {
		name          string
		run           *Run
		latencyOf     string
		requests      int64 // Total().Requests: every endpoint's
		failed        int64
		latencies     int64         // Total().Duration's count, and the second's
		p95           time.Duration // the second's and the total's
		httpDuration  string        // http_req_duration p(95)<500ms: "pass", or what its reason says
		grpcDurations float64       // grpc_req_duration's count
	}{
		{"GET + SSE + gRPC: the GET's", mixedRun(0, 1, 2), "requests", 16, 1, 10, 2 * time.Millisecond, "pass", 4},
		{"GET + SSE", mixedRun(0, 1), "requests", 12, 1, 10, 2 * time.Millisecond, "pass", 0},
		{"gRPC + SSE: the calls'", mixedRun(1, 2), "calls", 6, 1, 4, 30 * time.Millisecond,
			"no HTTP request: http_req_duration holds HTTP requests only, and the endpoints selected are measured by sse_session_duration, grpc_req_duration", 4},
		{"SSE alone: none", mixedRun(1), "", 2, 1, 0, 0, "measured by sse_session_duration", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tot := tt.run.Total()
			if got := tt.run.LatencyOf(); got != tt.latencyOf {
				t.Errorf("LatencyOf = %q, want %q", got, tt.latencyOf)
			}
			if tot.Requests != tt.requests || tot.Failures[sample.Timeout] != tt.failed {
				t.Errorf("Total requests, timeouts = %d, %d; want %d, %d (counts stay exact)", tot.Requests, tot.Failures[sample.Timeout], tt.requests, tt.failed)
			}
			sec := tt.run.Series[0]
			if tot.Duration.Count() != tt.latencies || sec.Latencies != tt.latencies || tot.Waiting.Count() != tt.latencies {
				t.Errorf("latencies merged: total %d (waiting %d), second %d; want %d", tot.Duration.Count(), tot.Waiting.Count(), sec.Latencies, tt.latencies)
			}
			if p := tot.Duration.Quantile(95); !nearDur(p, tt.p95) || !nearDur(sec.P95, tt.p95) {
				t.Errorf("p95: total %v, second %v; want %v", p, sec.P95, tt.p95)
			}
			th, err := threshold.New("http_req_duration", "p(95)<500ms")
			if err != nil {
				t.Fatal(err)
			}
			res := tt.run.Evaluate(&th)
			if tt.httpDuration == "pass" && !res.Pass || tt.httpDuration != "pass" && (res.Pass || !strings.Contains(res.Reason, tt.httpDuration)) {
				t.Errorf("http_req_duration p(95)<500ms: pass %v, %q; want %s", res.Pass, res.Reason, tt.httpDuration)
			}
			g, _ := threshold.New("grpc_req_duration", "count>=0")
			if n, _ := tt.run.Observe(&g); n != tt.grpcDurations {
				t.Errorf("grpc_req_duration count = %v, want %v (its calls, beside http_req_duration)", n, tt.grpcDurations)
			}
		})
	}
}

// nearDur reports whether two durations agree within the histograms' precision.
func nearDur(a, b time.Duration) bool {
	d := a - b
	return d >= -b/100-time.Microsecond && d <= b/100+time.Microsecond
}

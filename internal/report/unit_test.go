package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// unitFixture is a 2-second run of 10 samples on each endpoint of these
// protocols ("" for HTTP), 2 of each failed (a gRPC call UNAVAILABLE).
func unitFixture(t *testing.T, protocols ...string) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "arrival-rate"}}}
	names := map[string]string{"": "GET /x", "grpc": "GRPC echo.Echo/Say", "ws": "WS ws://127.0.0.1:1/chat"}
	for _, p := range protocols {
		layout.Endpoints = append(layout.Endpoints, sample.EndpointInfo{Name: names[p], Method: "GET", Protocol: p})
	}
	rec := metrics.NewRecorder(layout, 1)
	s := rec.Sink(0)
	for e, p := range protocols {
		for i := range 10 {
			r := sample.Request{Endpoint: int32(e), End: time.Duration(i)*100*time.Millisecond + 20*time.Millisecond, Duration: 20 * time.Millisecond, Status: 200}
			if p != "" {
				r.Facts = &sample.Facts{MsgsSent: 1, MsgsReceived: 1, FirstMsg: 20 * time.Millisecond, Session: 20 * time.Millisecond}
			}
			if i < 2 {
				r.Kind, r.Err = sample.HTTP5xx, "boom"
				if p == "grpc" {
					r.Facts.Code, r.Kind, r.Err = 14, sample.KindOfGRPC(14), "unavailable"
				}
			}
			s.Request(&r)
		}
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(time.Second)
	start := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "units", Status: "completed", Start: start, End: start.Add(time.Second), Run: run}
}

// TestRunPagesInItsUnit: a run's summary, report.html, the Markdown summary
// and the dashboard's data name what its samples are: a gRPC run's
// headline counts calls, its endpoint tables' columns are Calls and Calls/s,
// its sessions table counts calls; a WebSocket run's, sessions; a run that
// mixes HTTP and gRPC, or gRPC and WebSocket, counts operations, split by
// protocol in its headlines. Before, every page said requests and RPS
// (a mixed run's too), and the sessions table "Sessions" for gRPC calls.
func TestRunPagesInItsUnit(t *testing.T) {
	tests := []struct {
		name      string
		protocols []string
		text      []string // in the text summary, spaces collapsed
		page      []string // in report.html
		md        []string
		unit      string // PageMeta.Unit's many
		sessions  string // EndpointTable.SessionsHead
	}{
		{"gRPC", []string{"grpc"}, []string{"10 calls (10/s)", "ENDPOINT CALLS ACTIVE CALLS/S ERR%", "CALLS/S = CALLS / ACTIVE", "first call's intended start",
			"SESSION CALLS SENT RECEIVED MSGS/S"},
			[]string{`<th class="num">Calls</th>`, `>Calls/s</th>`, "10 calls in 1.00s", "<th class=\"num\">Msgs received/s</th>"},
			[]string{"| Endpoint | Calls | Active | Calls/s |", "| Endpoint | Protocol | Calls | Sent |"}, "calls", "Calls"},
		{"WebSocket", []string{"ws"}, []string{"10 sessions (10/s)", "ENDPOINT SESSIONS ACTIVE SESSIONS/S", "SESSION SESSIONS SENT"},
			[]string{`<th class="num">Sessions</th>`, `>Sessions/s</th>`, "10 sessions in 1.00s"}, []string{"| Endpoint | Sessions | Active | Sessions/s |"}, "sessions", "Sessions"},
		{"HTTP and gRPC", []string{"", "grpc"}, []string{"20 operations (20/s): 10 requests, 10 calls", "ENDPOINT OPS ACTIVE OPS/S",
			"OPS/S = OPS / ACTIVE", "first operation's intended start", "SESSION CALLS SENT"},
			[]string{`<th class="num">Operations</th>`, `>Ops/s</th>`, "20 operations (10 requests, 10 calls) in 1.00s"},
			[]string{"| Endpoint | Operations | Active | Ops/s |", "| 20 (10 requests, 10 calls) | 20 ops/s |"}, "operations", "Calls"},
		{"gRPC and WebSocket", []string{"grpc", "ws"}, []string{"20 operations (20/s): 10 calls, 10 sessions", "SESSION CALLS, SESSIONS SENT"},
			[]string{"20 operations (10 calls, 10 sessions) in 1.00s"}, []string{"| Operations | Throughput |"}, "operations", "Calls, sessions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := unitFixture(t, tc.protocols...)
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			contains(t, "the summary", strings.Join(strings.Fields(b.String()), " "), tc.text)
			b.Reset()
			if err := WriteHTML(&b, in); err != nil {
				t.Fatal(err)
			}
			contains(t, "report.html", b.String(), tc.page)
			contains(t, "summary.md", string(Markdown(in)), tc.md)
			meta, err := json.Marshal(NewPageMeta(in, 0))
			if err != nil {
				t.Fatal(err)
			}
			contains(t, "the pages' meta", string(meta), []string{`"many":"` + tc.unit + `"`})
			if got := NewEndpointTable(in.Run).SessionsHead; got != tc.sessions {
				t.Errorf("the dashboard's sessions head %q, want %q", got, tc.sessions)
			}
		})
	}
	var b bytes.Buffer
	if err := WriteText(&b, unitFixture(t, "grpc")); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary-grpc.txt", b.Bytes())
}

// contains reports each of want that s lacks.
func contains(t *testing.T, what, s string, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%s does not say %q:\n%s", what, w, s)
		}
	}
}

// TestMetricUnit: a threshold's "judged: … over 150 calls" counts what its
// metric is of: a protocol's own metric its calls or sessions, any other
// what the run's samples count, and the run's latency what it times.
func TestMetricUnit(t *testing.T) {
	mixed := unitFixture(t, "", "grpc", "ws").Run
	tests := []struct {
		run    *metrics.Run
		metric string
		want   string
	}{
		{mixed, "grpc_req_duration", "calls"},
		{mixed, "ws_reply_time", "sessions"},
		{mixed, "http_req_duration", "requests"},       // the HTTP requests' latency
		{mixed, "http_req_failed", "operations"},       // every sample
		{mixed, "sse_time_to_first_msg", "operations"}, // no SSE endpoint: the run's
		{unitFixture(t, "grpc").Run, "http_req_duration", "calls"},
		{unitFixture(t, "grpc", "ws").Run, "http_req_duration", "calls"}, // the calls' latency, no session's
	}
	for _, tc := range tests {
		if got := metricUnit(tc.run, tc.metric).Many; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.metric, got, tc.want)
		}
	}
}

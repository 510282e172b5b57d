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

// sessionLatencyRun is one second of the endpoints keep names: a GET
// (10 of 2 ms), an SSE session held 2 s (2), a gRPC call (4 of 30 ms).
func sessionLatencyRun(t *testing.T, keep ...int) *Input {
	t.Helper()
	all := []sample.EndpointInfo{{Name: "GET /x", Method: "GET"}, {Name: "SSE /feed", Method: "GET", Protocol: "sse", Session: true},
		{Name: "GRPC a.B/C", Method: "GRPC", Protocol: "grpc"}}
	counts := []int{10, 2, 4}
	durs := []time.Duration{2 * time.Millisecond, 2 * time.Second, 30 * time.Millisecond}
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "vus"}}}
	for _, i := range keep {
		l.Endpoints = append(l.Endpoints, all[i])
	}
	rec := metrics.NewRecorder(l, 1)
	for id, i := range keep {
		for range counts[i] {
			r := sample.Request{Endpoint: int32(id), End: time.Second / 2, Duration: durs[i], Waiting: durs[i] / 2, Status: 200}
			if all[i].Protocol != "" {
				r.Facts = &sample.Facts{MsgsReceived: 1, FirstMsg: time.Millisecond, Session: durs[i]}
			}
			rec.Sink(0).Request(&r)
		}
	}
	run := metrics.NewRun(l)
	run.Add(rec.Collect(0))
	run.SetElapsed(2 * time.Second)
	start := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	return &Input{Name: "sessions", Status: "completed", Start: start, End: start.Add(2 * time.Second), Run: run}
}

// TestHeadlineLatencyLeavesSessionsOut: the headline latency (report.html's
// cards, the brief line, summary.md) and summary.json's http_req_duration
// are the HTTP requests' beside an SSE session held 2 s (trial s35, defect
// 5: "P95 LATENCY 2.01s"), a gRPC-only run's are its calls' and say so, and
// a run of sessions alone has none.
func TestHeadlineLatencyLeavesSessionsOut(t *testing.T) {
	tests := []struct {
		name      string
		keep      []int
		label     string  // report.html's p95 card
		p95       string  // its value
		brief     string  // in the brief line
		reqDur    float64 // summary.json's http_req_duration count
		reqDurMax float64 // and max, ms
	}{
		{"GET + SSE", []int{0, 1}, "p95 latency", "2.00ms", "· p95 2.00ms ·", 10, 2},
		{"GET + SSE + gRPC", []int{0, 1, 2}, "p95 latency", "2.00ms", "· p95 2.00ms ·", 10, 2},
		{"gRPC + SSE", []int{1, 2}, "p95 call duration", "30.0ms", "· call p95 30.0ms ·", 0, 0},
		{"SSE alone", []int{1}, "p95 latency", "-", "· p95 - ·", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := sessionLatencyRun(t, tt.keep...)
			if c := headlineCards(in)[1]; c.Label != tt.label || c.Value != tt.p95 {
				t.Errorf("headline card = %q %q, want %q %q", c.Label, c.Value, tt.label, tt.p95)
			}
			var b bytes.Buffer
			if err := WriteBrief(&b, in); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tt.brief) {
				t.Errorf("brief = %q, want %q in it", b.String(), tt.brief)
			}
			js, err := SummaryJSON(in)
			if err != nil {
				t.Fatal(err)
			}
			var out struct {
				Metrics map[string]map[string]float64 `json:"metrics"`
			}
			if err := json.Unmarshal(js, &out); err != nil {
				t.Fatal(err)
			}
			d := out.Metrics["http_req_duration"]
			if d["count"] != tt.reqDur || d["max"] < tt.reqDurMax*0.99 || d["max"] > tt.reqDurMax*1.01 {
				t.Errorf("summary.json http_req_duration = %v, want count %v max %vms", d, tt.reqDur, tt.reqDurMax)
			}
			if n, want := out.Metrics["http_reqs"]["count"], float64(in.Run.Total().Requests); n != want || want < 2 {
				t.Errorf("http_reqs = %v, want every sample, sessions included (%v)", n, want)
			}
		})
	}
}

// TestSummaryTextWithSessions: the text summary of a GET beside an SSE
// session: the all-endpoints row's latency is the GET's, its count every
// request's, and the note under the table says where the sessions went.
func TestSummaryTextWithSessions(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, sessionLatencyRun(t, 0, 1)); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary-sessions.txt", b.Bytes())
}

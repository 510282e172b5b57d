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

// TestFactsInSummaryJSON: a session protocol's facts appear in the text
// summary's sessions table and in summary.json under <protocol>_<fact>,
// with no code per protocol; HTTP alone adds none.
func TestFactsInSummaryJSON(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Name: "GET /x", Method: "GET"}, {Name: "SSE /feed", Method: "GET", Protocol: "sse"},
			{Name: "WS /chat", Method: "GET", Protocol: "ws"}}}
	rec := metrics.NewRecorder(layout, 1)
	rec.Sink(0).Request(&sample.Request{End: time.Second / 2, Duration: 10 * time.Millisecond, Status: 200})
	for range 2 {
		f := sample.Facts{MsgsReceived: 3, FirstMsg: 20 * time.Millisecond, Session: time.Second}
		rec.Sink(0).Request(&sample.Request{Endpoint: 1, End: time.Second / 2, Duration: time.Second, Status: 200, Facts: &f})
	}
	w := sample.Facts{MsgsSent: 4, MsgsReceived: 4, Reply: 5 * time.Millisecond, Session: time.Second}
	rec.Sink(0).Request(&sample.Request{Endpoint: 2, End: time.Second / 2, Duration: time.Second, Status: 101, Facts: &w})
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(2 * time.Second)
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	in := &Input{Name: "facts", Status: "completed", Start: start, End: start.Add(2 * time.Second), Run: run}
	js, err := SummaryJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := WriteText(&text, in); err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(text.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && (f[0] == "SSE" || f[0] == "WS" || f[0] == "SESSION") {
			rows[f[0]] = strings.Join(f, " ")
		}
	}
	if rows["SESSION"] == "" || !strings.HasPrefix(rows["SSE"], "SSE /feed 2 0 6 3/s 20") || !strings.HasPrefix(rows["WS"], "WS /chat 1 4 4 2/s") {
		t.Errorf("the summary's sessions: %q in\n%s", rows, text.String())
	}
	var out struct {
		Metrics map[string]map[string]any `json:"metrics"`
	}
	if err := json.Unmarshal(js, &out); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]map[string]float64{
		"sse_msgs_received":     {"count": 6, "rate": 3},
		"sse_sessions":          {"count": 2},
		"sse_time_to_first_msg": {"count": 2, "max": 20},
		"ws_msgs_sent":          {"count": 4},
		"ws_reply_time":         {"count": 1, "max": 5},
		"ws_time_to_first_msg":  {"count": 1},
		"sse_req_duration":      {"count": 2, "max": 1000}, // the endpoints' durations, as k6's grpc_req_duration
		"ws_req_duration":       {"count": 1},
	} {
		for k, v := range want {
			got, _ := out.Metrics[name][k].(float64)
			if got < v*0.99 || got > v*1.01 {
				t.Errorf("%s.%s = %v, want %v", name, k, out.Metrics[name][k], v)
			}
		}
	}
	if _, ok := out.Metrics["http_msgs_received"]; ok {
		t.Error("an HTTP endpoint's metrics include facts")
	}
}

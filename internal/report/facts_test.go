package report

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestFactsInSummaryJSON: a session protocol's facts appear in summary.json
// under <protocol>_<fact>, with no code per protocol; HTTP alone adds none.
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
	js, err := SummaryJSON(&Input{Name: "facts", Status: "completed", Start: start, End: start.Add(2 * time.Second), Run: run})
	if err != nil {
		t.Fatal(err)
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

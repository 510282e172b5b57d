package capacityrun

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// TestCapacityRefusesWhatSessionsCannotJudge: a search of a WebSocket or
// SSE test refuses, before any step runs, an SLO latency that would be how
// long the test holds its sessions open, and sessions that outlast a step.
// Before, a ws: test under http_req_duration p(95) < 100ms failed every
// step on its sessions' 10s length, and ran them.
func TestCapacityRefusesWhatSessionsCannotJudge(t *testing.T) {
	const head = "scenarios:\n  chat:\n    rate: 10\n    duration: 10s\n    flow:\n"
	tests := []struct {
		name, flow, thresholds string
		hold                   time.Duration
		want                   string // "" : accepted
	}{
		{"http_req_duration over ws sessions with until",
			"      - ws: ws://127.0.0.1:1/\n        send: [{text: hi}]\n        until: {body_contains: hi}\n        timeout: 1s\n",
			`http_req_duration: ["p(95) < 100ms"]`, 5 * time.Second,
			`capacity: capacity.yaml:1:1: thresholds: http_req_duration is the SLO's latency, but the test makes no HTTP request: it would judge how long its ws: sessions stay open, which the test decides, not the load; judge the protocol's own latency, e.g. ws_reply_time: ["p(95) < 200ms"]`},
		{"http_req_duration over sse sessions",
			"      - sse: http://127.0.0.1:1/\n        max_events: 3\n",
			`http_req_duration: ["p(95) < 100ms"]`, 5 * time.Second,
			`e.g. sse_time_to_first_msg: ["p(95) < 200ms"]`},
		{"the protocol's own latency is accepted",
			"      - ws: ws://127.0.0.1:1/\n        send: [{text: hi}]\n        until: {body_contains: hi}\n        timeout: 1s\n",
			`ws_reply_time: ["p(95) < 100ms"]`, 5 * time.Second, ""},
		{"http_req_duration of HTTP requests beside the sessions is accepted",
			"      - get: http://127.0.0.1:1/\n      - ws: ws://127.0.0.1:1/\n        send: [{text: hi}]\n        until: {body_contains: hi}\n        timeout: 1s\n",
			`http_req_duration: ["p(95) < 100ms"]`, 5 * time.Second, ""},
		{"http_req_duration of gRPC calls is their duration, accepted",
			"      - grpc: grpc://127.0.0.1:1\n        method: a.B/C\n",
			`http_req_duration: ["p(95) < 100ms"]`, 5 * time.Second, "protoset"},
		{"sessions held open as long as a step",
			"      - ws: ws://127.0.0.1:1/\n        send: [{text: hi, every: 1s}]\n        duration: 30s\n",
			`ws_msgs_received: ["rate > 5"]`, 30 * time.Second,
			`capacity: scenario chat's ws: step (WS ws://127.0.0.1:1/) stays open 30s (duration:), as long as a step's hold of 30s or longer: its sessions would end after the step, so their messages and replies would count in none; hold each step longer (--hold 1m) or end the sessions sooner (until:, max_messages)`},
		{"sessions shorter than a step",
			"      - ws: ws://127.0.0.1:1/\n        send: [{text: hi, every: 1s}]\n        duration: 3s\n",
			`ws_msgs_received: ["rate > 5"]`, 10 * time.Second, ""},
		{"a duration ended sooner by until:",
			"      - ws: ws://127.0.0.1:1/\n        send: [{text: hi}]\n        until: {body_contains: hi}\n        duration: 30s\n",
			`ws_reply_time: ["p(95) < 100ms"]`, 10 * time.Second, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := parseTest(t, "thresholds:\n  "+tc.thresholds+"\n"+head+tc.flow)
			err := checkCapacityPlan(p, tc.hold)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "protoset":
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err %v, want it to say %s", err, tc.want)
			}
		})
	}
	// Through Capacity: refused as bad input, before a run directory is made.
	p := parseTest(t, "thresholds:\n  http_req_duration: [\"p(95) < 1s\"]\n"+head+"      - sse: http://127.0.0.1:1/\n        max_events: 3\n")
	dir := t.TempDir()
	res, err := Capacity(context.Background(), CapacityConfig{Plan: p, ResultsDir: dir, Out: &bytes.Buffer{},
		Search: capacity.Config{StartRate: 10, Hold: time.Second}})
	if err == nil || res.ExitCode != app.ExitBadInput {
		t.Fatalf("err %v exit %d, want a refusal, exit %d", err, res.ExitCode, app.ExitBadInput)
	}
}

// TestStepLatencyIsTheSLOs: a step's p95, p99 and mean are the SLO's
// latency metric's; before, every step of a WebSocket test showed, and
// the busy-host rule judged, the sessions' length.
func TestStepLatencyIsTheSLOs(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "chat", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Name: "WS /chat", Protocol: "ws"}}}
	rec := metrics.NewRecorder(layout, 1)
	for i := range 100 {
		f := sample.Facts{MsgsSent: 1, MsgsReceived: 1, Reply: time.Duration(i+1) * time.Millisecond}
		rec.Sink(0).Request(&sample.Request{Endpoint: 0, End: time.Second / 2, Duration: 2 * time.Second, Facts: &f})
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(time.Second)
	tests := []struct {
		metric         string
		p95, p99, mean time.Duration
	}{
		{"ws_reply_time", 95 * time.Millisecond, 99 * time.Millisecond, 50500 * time.Microsecond},
		{"ws_req_duration", 2 * time.Second, 2 * time.Second, 2 * time.Second},
		{"ws_time_to_first_msg", 0, 0, 0}, // no first message recorded: no figure
	}
	near := func(got, want time.Duration) bool { return got >= want*99/100 && got <= want*101/100 }
	for _, tc := range tests {
		p95, p99, mean := observeLatency(run, tc.metric)
		if !near(p95, tc.p95) || !near(p99, tc.p99) || !near(mean, tc.mean) {
			t.Errorf("%s: p95 %v p99 %v mean %v, want %v %v %v", tc.metric, p95, p99, mean, tc.p95, tc.p99, tc.mean)
		}
	}
}

// TestPlanUnit: a search counts what its test's steps count, so that its
// tables say calls/s for gRPC and sessions/s for WebSocket and SSE; a test
// mixing them counts operations.
func TestPlanUnit(t *testing.T) {
	const head = "scenarios:\n  s:\n    rate: 10\n    duration: 10s\n    flow:\n"
	const (
		get  = "      - get: http://127.0.0.1:1/\n"
		call = "      - grpc: grpc://127.0.0.1:1\n        method: a.B/C\n"
		ws   = "      - ws: ws://127.0.0.1:1/\n        send: [{text: hi}]\n        until: {body_contains: hi}\n"
		sse  = "      - sse: http://127.0.0.1:1/\n        max_events: 3\n"
	)
	tests := []struct {
		name, flow string
		want       units.Unit
	}{
		{"HTTP", get, units.Requests},
		{"gRPC", call + call, units.Calls},
		{"WebSocket", ws, units.Sessions},
		{"WebSocket and SSE", ws + sse, units.Sessions},
		{"HTTP and gRPC", get + call, units.Operations},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := planUnit(parseTest(t, head+tc.flow)); got != tc.want {
				t.Errorf("%v, want %v", got, tc.want)
			}
		})
	}
}

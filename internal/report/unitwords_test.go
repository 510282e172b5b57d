package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// protocolInput is a run of 10 samples of one protocol ("" HTTP, "grpc",
// "ws"), failed of them timed out, judged by its protocol's
// <protocol>_req_duration avg<10s.
func protocolInput(t *testing.T, protocol string, failed int) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "vus"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "x", Method: "GET", Protocol: protocol}}}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for i := range 10 {
		r := sample.Request{End: time.Second / 2, Duration: 10 * time.Millisecond}
		if protocol != "" {
			r.Facts = &sample.Facts{MsgsSent: 1}
		}
		if i < failed {
			r.Kind, r.Err = sample.Timeout, "timeout"
		}
		sink.Request(&r)
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.SetElapsed(time.Second)
	metric := "http_req_duration"
	if protocol != "" {
		metric = protocol + "_req_duration"
	}
	th, err := threshold.New(metric, "avg<10s")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	return &Input{Name: "units", Status: "completed", Version: "test", Start: start, End: start.Add(time.Second),
		Run: run, Thresholds: []threshold.Threshold{th}, Results: []threshold.Result{run.Evaluate(&th)}}
}

// TestSummaryWordsSayTheRunsUnit: the summary's and report.html's words
// about failed and judged samples name what the run counts: requests for
// HTTP (unchanged), calls for gRPC, sessions for WebSocket.
func TestSummaryWordsSayTheRunsUnit(t *testing.T) {
	tests := []struct {
		protocol string
		failed   int
		want     []string // in the terminal summary, whitespace folded
		noFail   string   // report.html's errors table when none failed
	}{
		{"", 10, []string{"ALL FAILED: every one of the 10 requests failed.", "a gate never passes a run in which no request succeeded", "no completed request (10 sent)"}, ""},
		{"grpc", 10, []string{"ALL FAILED: every one of the 10 calls failed.", "a gate never passes a run in which no call succeeded", "no completed call (10 sent)"}, ""},
		{"ws", 10, []string{"ALL FAILED: every one of the 10 sessions failed.", "a gate never passes a run in which no session succeeded", "no completed session (10 sent)"}, ""},
		{"", 0, []string{"A latency threshold judges every request its filter selects"}, "No request failed."},
		{"grpc", 0, []string{"A latency threshold judges every call its filter selects"}, "No call failed."},
		{"ws", 0, []string{"A latency threshold judges every session its filter selects"}, "No session failed."},
	}
	for _, tc := range tests {
		t.Run(tc.protocol+" "+tc.want[0], func(t *testing.T) {
			in := protocolInput(t, tc.protocol, tc.failed)
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(b.String()), " ")
			for _, w := range tc.want {
				if !strings.Contains(flat, w) {
					t.Errorf("the summary lacks %q:\n%s", w, b.String())
				}
			}
			if tc.noFail != "" {
				if got := newHTMLView(in).NoFailures; got != tc.noFail {
					t.Errorf("report.html says %q when none failed, want %q", got, tc.noFail)
				}
			}
		})
	}
}

// TestFigureTextRateInTheRunsUnit: a finding's throughput reads in what
// the run counts (Figure.Per), and as before without one.
func TestFigureTextRateInTheRunsUnit(t *testing.T) {
	for _, tc := range []struct {
		per, want string
	}{{"", "200 req/s"}, {"calls", "200 calls/s"}, {"sessions", "200 sessions/s"}} {
		f := diagnose.Figure{Value: 200, Unit: diagnose.UnitReqPerSec, Per: tc.per}
		if got := FigureText(f); got != tc.want {
			t.Errorf("FigureText(per %q) = %q, want %q", tc.per, got, tc.want)
		}
	}
}

// TestMarkdownHeadlineSaysTheRunsUnit: --summary-md's headline table named
// a gRPC run's calls "Requests" (s35 trial 2 defect 7).
func TestMarkdownHeadlineSaysTheRunsUnit(t *testing.T) {
	for protocol, want := range map[string]string{"": "| Requests | Throughput |", "grpc": "| Calls | Throughput |", "ws": "| Sessions | Throughput |"} {
		if got := string(Markdown(protocolInput(t, protocol, 0))); !strings.Contains(got, want) {
			t.Errorf("%q run: the Markdown summary lacks %q:\n%s", protocol, want, got)
		}
	}
}

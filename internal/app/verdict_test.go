package app

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// TestAbortOnFailStopsARunWithoutAnswers checks that abort_on_fail uses the
// verdict's judgement: a latency threshold whose requests all fail before
// a response (here refused: nothing listens) stops the run, where judging
// the failures' own durations would let it pass.
func TestAbortOnFailStopsARunWithoutAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a port nothing listens on: every connection is refused at once
	yaml := fmt.Sprintf(`
base_url: http://%s
thresholds:
  http_req_duration:
    - threshold: "p(95) < 5s"
      abort_on_fail: true
scenarios:
  dead:
    model: arrival-rate
    rate: 20
    duration: 60s
    flow:
      - get: /
`, addr)
	start := time.Now()
	res, text, s := runYAML(t, yaml, nil)
	if el := time.Since(start); el > 15*time.Second {
		t.Fatalf("the run went on for %v although nothing was answered", el)
	}
	if res.Status != StatusAborted || res.ExitCode != ExitThresholdFailed {
		t.Fatalf("status %s exit %d, want aborted and 99\n%s", res.Status, res.ExitCode, text)
	}
	sent := int(metric(s, "http_reqs", "count"))
	want := "no completed request (" + units.Count(int64(sent)) + " sent)"
	if sent == 0 || !strings.Contains(text, want+"  (stopped the run)") {
		t.Errorf("the summary does not give %q as what stopped the run:\n%s", want, text)
	}
	if !strings.Contains(text, "conn_refused") {
		t.Errorf("the summary does not name the refusals:\n%s", text)
	}
}

// TestDashboardJudgesAsTheVerdict feeds the dashboard seconds in which
// every request timed out: its live threshold state must read as the
// summary will, failed for want of a completed request.
func TestDashboardJudgesAsTheVerdict(t *testing.T) {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "dead", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /", Method: "GET"}}}
	th, err := threshold.New("http_req_duration", "p(95) < 5s")
	if err != nil {
		t.Fatal(err)
	}
	in := &report.Input{Name: "dead", Run: metrics.NewRun(layout), CPUs: 2, Thresholds: []threshold.Threshold{th}}
	f, err := startDashboard(DashboardConfig{Addr: "127.0.0.1:0"}, in, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	events := subscribe(t, f.d.URL()+"events")
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for i := range 7 {
		sink.Request(&sample.Request{End: time.Duration(i) * time.Millisecond, Duration: time.Second, Kind: sample.Timeout, Err: "timeout"})
	}
	in.Run.Add(rec.Collect(0))
	f.second(in.Run, time.Second, 0.1, nil, func() {})
	verdict := evaluate(in.Run, in.Thresholds, nil)[0]
	for ev := range events {
		if ev.name != "frame" {
			continue
		}
		var frame report.Frame
		if err := json.Unmarshal([]byte(ev.data), &frame); err != nil {
			t.Fatal(err)
		}
		if len(frame.Thresholds) != 1 || frame.Thresholds[0].Pass || frame.Thresholds[0].Text != "no completed request (7 sent)" ||
			verdict.Pass || verdict.Reason != frame.Thresholds[0].Text {
			t.Errorf("dashboard %+v, verdict %+v: want both failed with no completed request (7 sent)", frame.Thresholds, verdict)
		}
		return
	}
	t.Fatal("the dashboard sent no frame")
}

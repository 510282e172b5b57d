package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// failingRun is a completed run without thresholds in which bad of 200
// requests failed with a 503 after 2s; the others took 20ms.
func failingRun(t *testing.T, bad int) *Input {
	t.Helper()
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "default", Model: "arrival-rate"}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /x", Method: "GET"}}}
	rec := metrics.NewRecorder(layout, 1)
	sink := rec.Sink(0)
	for i := range 200 {
		r := sample.Request{End: time.Second + time.Duration(i)*time.Millisecond, Duration: 20 * time.Millisecond}
		if i < bad {
			r.Kind, r.Err, r.Duration = sample.HTTP5xx, "503 Service Unavailable", 2*time.Second
		}
		sink.Request(&r)
	}
	run := metrics.NewRun(layout)
	run.Add(rec.Collect(0))
	run.Add(rec.Collect(1))
	run.SetElapsed(2 * time.Second)
	start := time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC)
	return &Input{Name: "failing", Status: "completed", Version: "test", Start: start, End: start.Add(2 * time.Second), Run: run}
}

// TestFailuresWithoutThresholdsSayTheExitCode: a run without thresholds
// exits 0 whatever failed (as k6's does); from 1 % failed, not only at
// 100 %, the summary says how many failed, that the exit code is still 0,
// and the threshold to add. With a threshold judging the run, it does not.
func TestFailuresWithoutThresholdsSayTheExitCode(t *testing.T) {
	for _, tc := range []struct {
		name       string
		bad        int
		thresholds bool
		want, not  string
	}{
		{"98% failed", 196, false, "FAILURES: 196 of 200 requests failed (98.00%). No thresholds were set, so the exit code is still 0; set one (in URL mode --threshold 'http_req_failed: rate<0.01'", "ALL FAILED"},
		{"1% failed", 2, false, "FAILURES: 2 of 200 requests failed (1.00%). No thresholds were set, so the exit code is still 0", "ALL FAILED"},
		{"below 1%", 1, false, "", "exit code is still 0"},
		{"none failed", 0, false, "", "FAILURES"},
		{"all failed", 200, false, "ALL FAILED: every one of the 200 requests failed. No thresholds were set, so the exit code is still 0", "FAILURES:"},
		{"98% failed, judged by a threshold", 196, true, "FAIL: 1 of 1 threshold failed", "exit code is still 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := failingRun(t, tc.bad)
			if tc.thresholds {
				th, err := threshold.New("http_req_failed", "rate<0.01")
				if err != nil {
					t.Fatal(err)
				}
				in.Thresholds, in.Results, in.ExitCode = []threshold.Threshold{th}, []threshold.Result{in.Run.Evaluate(&th)}, 99
			}
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(b.String()), " ")
			if !strings.Contains(flat, tc.want) || strings.Contains(flat, tc.not) {
				t.Errorf("want %q and not %q:\n%s", tc.want, tc.not, b.String())
			}
		})
	}
}

// TestAPercentileFailedForItsFailuresShowsItsValue: a p(95) failed because
// more requests failed than it leaves out still shows the p(95) observed,
// and over what, in the terminal, report.html and summary.md (trial B:
// demo-naive's 2.05s was nowhere beside "more than the 5.00% p(95) leaves out").
func TestAPercentileFailedForItsFailuresShowsItsValue(t *testing.T) {
	in := failingRun(t, 120)
	th, err := threshold.New("http_req_duration", "p(95)<=800ms")
	if err != nil {
		t.Fatal(err)
	}
	in.Thresholds, in.Results, in.ExitCode = []threshold.Threshold{th}, []threshold.Result{in.Run.Evaluate(&th)}, 99
	for _, name := range []string{"text", "markdown", "report.html", "summary.json"} {
		out := renderings(t, in)[name]
		for _, want := range []string{"120 of 200 requests failed (60.00%): more than the 5.00% p(95) leaves out", "p(95)=2.", "s over all 200 requests, failed ones included"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
}

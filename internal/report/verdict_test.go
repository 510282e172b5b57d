package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/threshold"
)

// TestVerdictSaysHowTheRunEnded: every way a run ends gets a verdict that
// matches its exit code — an interrupted run never reads PASS, and every
// "exit code N" the summary writes is the code the run ended with
// (trial defect: "ALL FAILED … the exit code is still 0" on a run that
// exited 1, "PASS" and "passed": true on an interrupted run).
func TestVerdictSaysHowTheRunEnded(t *testing.T) {
	pass := []threshold.Result{{Key: "http_req_failed", Expr: "rate<=1", HasData: true, Pass: true, Observed: 1}}
	fail := []threshold.Result{{Key: "http_req_failed", Expr: "rate<0.01", HasData: true, Observed: 1}}
	tests := []struct {
		name     string
		status   string
		results  []threshold.Result
		exit     int
		verdict  string
		want     string // in the flattened summary
		notWant  []string
		passed   bool
		allFails bool // keep the dead run's 60 failed requests
	}{
		{"completed, passed", "completed", pass, 0, VerdictPass, "PASS: 1 threshold passed", []string{"exit code"}, true, false},
		{"completed, failed", "completed", fail, 99, VerdictFail, "FAIL: 1 of 1 threshold failed", []string{"PASS"}, false, false},
		{"completed, no thresholds, all failed", "completed", nil, 0, VerdictNoThresholds,
			"No thresholds were set, so the exit code is still 0", []string{"PASS", "FAIL:"}, true, true},
		{"interrupted, passed", "interrupted", pass, 1, VerdictInterrupted,
			"INTERRUPTED: stopped before its end (Ctrl-C or SIGTERM); on what ran, its threshold passed (the run's exit code: 1)", []string{"PASS"}, false, false},
		{"interrupted, failed", "interrupted", fail, 99, VerdictInterrupted,
			"INTERRUPTED: stopped before its end (Ctrl-C or SIGTERM); on what ran, 1 of 1 threshold failed (the run's exit code: 99)", []string{"PASS"}, false, false},
		{"interrupted, no thresholds, all failed", "interrupted", nil, 1, VerdictInterrupted,
			"ALL FAILED: every one of the 60 requests failed. INTERRUPTED: stopped before its end (Ctrl-C or SIGTERM) (the run's exit code: 1)",
			[]string{"still 0", "PASS"}, false, true},
		{"run failed, passed", "failed", pass, 1, VerdictRunFailed, "RUN FAILED: an error stopped the run; on what ran, its threshold passed (the run's exit code: 1)",
			[]string{"PASS"}, false, false},
		{"incomplete", "incomplete", fail, 1, VerdictIncomplete, "INCOMPLETE: the results are not all kept; on what ran, 1 of 1 threshold failed (the run's exit code: 1)",
			[]string{"PASS"}, false, false},
		{"killed: read back without an end", "incomplete", fail, history.NoExitCode, VerdictIncomplete,
			"INCOMPLETE: the run did not finish (killed, or its machine stopped, before its own summary; or it is still running): run.db recorded no end and no exit code; on what ran, 1 of 1 threshold failed",
			[]string{"PASS", "exit code:", "not all kept"}, false, false},
		{"aborted by a threshold", "aborted", fail, 99, VerdictFail, "FAIL: 1 of 1 threshold failed; abort_on_fail stopped the run (the run's exit code: 99)",
			[]string{"PASS"}, false, false},
		{"aborted, passing on the whole run", "aborted", pass, 1, VerdictAborted,
			"ABORTED: abort_on_fail stopped the run; on what ran, its threshold passed (the run's exit code: 1)", []string{"PASS"}, false, false},
		{"completed, no thresholds, a report not written", "completed", nil, 1, VerdictNoThresholds,
			"ALL FAILED: every one of the 60 requests failed. An output could not be written (the run's exit code: 1)", []string{"still 0"}, true, true},
		{"completed, passed, a report not written", "completed", pass, 1, VerdictPass,
			"PASS: 1 threshold passed; an output could not be written (the run's exit code: 1)", nil, true, false},
	}
	exitRe := regexp.MustCompile(`exit code:? (\d+)`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := deadRun(t)
			in.Status, in.ExitCode = tc.status, tc.exit
			in.Thresholds, in.Results = nil, tc.results
			for _, r := range tc.results {
				th, err := threshold.New(r.Key, r.Expr)
				if err != nil {
					t.Fatal(err)
				}
				in.Thresholds = append(in.Thresholds, th)
			}
			if !tc.allFails {
				in.Run.Endpoints[0].Failures = [len(in.Run.Endpoints[0].Failures)]int64{}
			}
			if got := Verdict(in); got != tc.verdict {
				t.Errorf("Verdict = %q, want %q", got, tc.verdict)
			}
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(b.String()), " ")
			if !strings.Contains(flat, tc.want) {
				t.Errorf("the summary lacks %q:\n%s", tc.want, b.String())
			}
			for _, n := range tc.notWant {
				if strings.Contains(flat, n) {
					t.Errorf("the summary says %q:\n%s", n, b.String())
				}
			}
			for _, m := range exitRe.FindAllStringSubmatch(flat, -1) {
				if code, _ := strconv.Atoi(m[1]); code != tc.exit {
					t.Errorf("the summary says exit code %d; the run exits %d:\n%s", code, tc.exit, b.String())
				}
			}
			if strings.Contains(flat, "still 0") && tc.exit != 0 {
				t.Errorf("the summary says the exit code is still 0; it is %d", tc.exit)
			}
			js, err := SummaryJSON(in)
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Loadlens struct {
					Passed bool   `json:"passed"`
					Status string `json:"status"`
				} `json:"loadlens"`
			}
			if err := json.Unmarshal(js, &s); err != nil {
				t.Fatal(err)
			}
			if s.Loadlens.Passed != tc.passed || s.Loadlens.Status != tc.status {
				t.Errorf("summary.json passed %v status %q, want %v %q", s.Loadlens.Passed, s.Loadlens.Status, tc.passed, tc.status)
			}
		})
	}
}

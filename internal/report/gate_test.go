package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// TestNoSuccessFailsTheGate: thresholds that pass on counts alone (here
// http_reqs) do not pass a run in which every request failed; every
// rendering agrees, and a run with no thresholds or one success is judged
// by its thresholds as before.
func TestNoSuccessFailsTheGate(t *testing.T) {
	pass := threshold.Result{Key: "http_reqs", Expr: "count>10", HasData: true, Pass: true, Observed: 60}
	tests := []struct {
		name     string
		status   string
		results  []threshold.Result
		allFail  bool
		verdict  string
		passed   bool
		want     string
		htmlNote string
	}{
		{"every request failed, threshold passed", "completed", []threshold.Result{pass}, true, VerdictFail, false,
			"FAIL: every one of the 60 requests failed; a gate never passes a run in which no request succeeded, though its threshold passed",
			"every one of the 60 requests failed"},
		{"aborted as well", "aborted", []threshold.Result{pass}, true, VerdictFail, false,
			"no request succeeded, though its threshold passed; abort_on_fail stopped the run", "Aborted: every one"},
		{"interrupted", "interrupted", []threshold.Result{pass}, true, VerdictInterrupted, false,
			"on what ran, its threshold passed; every one of the 60 requests failed; a gate never passes a run in which no request succeeded", ""},
		{"no thresholds", "completed", nil, true, VerdictNoThresholds, true, "the exit code is still 0", ""},
		{"some succeeded", "completed", []threshold.Result{pass}, false, VerdictPass, true, "PASS: 1 threshold passed", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := deadRun(t)
			in.Status, in.Results, in.Thresholds = tc.status, tc.results, nil
			for _, r := range tc.results {
				th, err := threshold.New(r.Key, r.Expr)
				if err != nil {
					t.Fatal(err)
				}
				in.Thresholds = append(in.Thresholds, th)
			}
			if !tc.allFail {
				in.Run.Endpoints[0].Failures = [len(in.Run.Endpoints[0].Failures)]int64{}
				in.Run.Endpoints[0].Failures[2] = 59 // one of the 60 succeeded
			}
			if got := Verdict(in); got != tc.verdict || in.Passed() != tc.passed {
				t.Errorf("Verdict %q passed %v, want %q %v", got, in.Passed(), tc.verdict, tc.passed)
			}
			var b bytes.Buffer
			if err := WriteText(&b, in); err != nil {
				t.Fatal(err)
			}
			if flat := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(flat, tc.want) {
				t.Errorf("the summary lacks %q:\n%s", tc.want, b.String())
			}
			for i, line := range strings.Split(b.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > units.Columns {
					t.Errorf("line %d is %d columns: %q", i+1, n, line)
				}
			}
			if note := newHTMLView(in).StatusNote; tc.htmlNote != "" && !strings.HasPrefix(note, tc.htmlNote) {
				t.Errorf("report.html's note %q, want it to start %q", note, tc.htmlNote)
			}
			ju := renderings(t, in)["junit"]
			if fails := !strings.Contains(ju, `<testsuites name="loadlens: dead" tests="1" failures="0"`) &&
				!strings.Contains(ju, `<testsuites name="loadlens: dead" tests="0" failures="0"`); fails == tc.passed {
				t.Errorf("JUnit fails %v, the run passed %v:\n%s", fails, tc.passed, ju)
			}
		})
	}
}

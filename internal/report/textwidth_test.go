package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/units"
)

// TestTerminalSummaryFitsTerminal: the end-of-run summary, with long
// findings, the healthy statement and "!" notes, keeps every line within
// units.Columns.
func TestTerminalSummaryFitsTerminal(t *testing.T) {
	load := func(name string) (d struct {
		Findings []diagnose.Finding
		Healthy  *diagnose.Verdict
	}) {
		raw, err := os.ReadFile(filepath.Join("..", "diagnose", "testdata", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	diag := load("incident")
	diag.Healthy = load("healthy").Healthy
	in := deadRun(t)
	in.Findings, in.Healthy = diag.Findings, diag.Healthy
	in.Healthy.Parts = append(in.Healthy.Parts, diagnose.Segment{Text: strings.Repeat(" and a long reason", 10), Figure: -1})
	in.Notices = []string{"scenario default: " + strings.Repeat("a long notice ", 12)}
	var b bytes.Buffer
	if err := WriteText(&b, in); err != nil {
		t.Fatal(err)
	}
	withHealthy := *in
	withHealthy.Findings = nil
	if err := WriteBrief(&b, in); err != nil { // the demo's short summaries
		t.Fatal(err)
	}
	if err := WriteBrief(&b, &withHealthy); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if len(diag.Findings) == 0 || !strings.Contains(out, "DB pool exhausted") || !strings.Contains(out, "a long reason") {
		t.Fatalf("the summary lacks the findings or the healthy statement:\n%s", out)
	}
	for i, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > units.Columns {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
}

// TestEveryRequestFailedIsSaidPlainly: a run in which no request succeeded
// says so in words, and without thresholds says why it still exits 0.
func TestEveryRequestFailedIsSaidPlainly(t *testing.T) {
	for _, tc := range []struct {
		name       string
		thresholds bool
		want, not  string
	}{
		{"with thresholds", true, "ALL FAILED: every one of the 60 requests failed.", "No thresholds"},
		{"without thresholds", false, "ALL FAILED: every one of the 60 requests failed. No thresholds were set, so the exit code is still 0", "PASS"},
	} {
		in := deadRun(t)
		if !tc.thresholds {
			in.Thresholds, in.Results = nil, nil
		}
		var b bytes.Buffer
		if err := WriteText(&b, in); err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(b.String()), " ")
		if !strings.Contains(flat, tc.want) || strings.Contains(flat, tc.not) {
			t.Errorf("%s: want %q and not %q:\n%s", tc.name, tc.want, tc.not, b.String())
		}
	}
	if got := allFailedText(1, true); got != "ALL FAILED: the one request failed." {
		t.Errorf("one request: %q", got)
	}
}

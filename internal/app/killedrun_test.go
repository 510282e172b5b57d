package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
)

// TestAKilledRunHasNoExitCode: a run whose process was killed -9 recorded
// no end in run.db, and so no exit code. Read back, it said "INCOMPLETE:
// the results are not all kept (the run's exit code: 1)", a code the
// process never exited with; each view now says it did not finish and
// names no code, and its history record keeps NoExitCode.
func TestAKilledRunHasNoExitCode(t *testing.T) {
	dir := t.TempDir()
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{ID: "r", Name: "killed", Start: time.Now(),
		Layout: sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "vus"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /x", Method: "GET"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil { // no Finish: as kill -9 leaves it
		t.Fatal(err)
	}
	in, err := LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if in.Status != StatusIncomplete || in.ExitCode != history.NoExitCode {
		t.Errorf("read back %s with exit code %d; want incomplete with none (%d)", in.Status, in.ExitCode, history.NoExitCode)
	}
	if rec := historyRecord(in); rec.ExitCode != history.NoExitCode || rec.Result() != "incomplete" {
		t.Errorf("history record: exit code %d, result %q; want %d, incomplete", rec.ExitCode, rec.Result(), history.NoExitCode)
	}
	var text bytes.Buffer
	if err := Summary(&text, dir, false); err != nil {
		t.Fatal(err)
	}
	ju := filepath.Join(dir, "junit.xml")
	if _, err := Report(ReportConfig{Run: dir, Outputs: Outputs{JUnit: ju}}); err != nil {
		t.Fatal(err)
	}
	junit, err := os.ReadFile(ju)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out string
	}{
		{"summary", text.String()},
		{"JUnit", string(junit)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			flat := strings.Join(strings.Fields(tc.out), " ")
			if !strings.Contains(flat, "INCOMPLETE: the run did not finish (killed, or its machine stopped, before its own summary") {
				t.Errorf("the %s does not say the run did not finish:\n%s", tc.name, tc.out)
			}
			if strings.Contains(flat, "exit code:") || strings.Contains(flat, "exit code 1") {
				t.Errorf("the %s names an exit code the killed run never had:\n%s", tc.name, tc.out)
			}
		})
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
)

// TestRunsAndHistorySayOneResult: `runs` and `history` give a run the same
// RESULT word (history.Result), "(generator)" included. Trial C's run 11
// of histstep, whose own diagnosis found the generator limited it, read "no
// thresholds" in runs and "no thresholds (generator)" in history; run 12,
// undisturbed, reads "no thresholds" in both.
func TestRunsAndHistorySayOneResult(t *testing.T) {
	results := t.TempDir()
	want := map[string]string{
		"20261130-142620-histstep": "no thresholds (generator)",
		"20261130-142633-histstep": "no thresholds",
	}
	for dir := range want {
		b, err := os.ReadFile(filepath.Join("testdata", "runword", dir, "run.db"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(results, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(results, dir, "run.db"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"runs"}, {"history", "histstep"}} {
		code, stdout, stderr := main(append(args, "--results", results)...)
		if code != app.ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		lines := strings.Split(stdout, "\n")
		for dir, word := range want {
			got := ""
			for i, l := range lines { // the run's directory, alone on its line when its figures take the next
				switch {
				case strings.TrimSpace(l) == dir && i+1 < len(lines):
					got = lines[i+1]
				case strings.HasPrefix(l, dir+" "):
					got = l
				}
			}
			if !strings.Contains(got, "  "+word+"  ") && !strings.HasSuffix(got, "  "+word) { // the whole word, not a prefix
				t.Errorf("%v: %s reads %q, want RESULT %q\n%s", args, dir, got, word, stdout)
			}
		}
		if !strings.Contains(stdout, "(generator): the run's own diagnosis") {
			t.Errorf("%v: no note says what (generator) means:\n%s", args, stdout)
		}
	}
}

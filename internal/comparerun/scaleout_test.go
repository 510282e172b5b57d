package comparerun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareSaysScalingDidNotRaiseThroughput is trial A38's case study 3:
// a single-row lock behind nginx, 1 then 2 Go instances at 70 req/s,
// completed 57.1 and 58.6 req/s. Only the pair where B scraped more app
// instances, at a load A could not complete, says scaling did not help.
func TestCompareSaysScalingDidNotRaiseThroughput(t *testing.T) {
	dir := t.TempDir()
	one, two := corpusRun(t, dir, "trialA38-take1"), corpusRun(t, dir, "trialA38-take2")
	heavy20, heavy100 := corpusRun(t, dir, "trialA38-heavy20"), corpusRun(t, dir, "trialA38-heavy100")
	const said = "scaling did not raise throughput: B scraped 2 targets of role=app where A scraped 1"
	for _, tc := range []struct {
		name string
		runs []string
		want bool
	}{
		{"1 → 2 instances", []string{one, two}, true},
		{"2 → 1 instance", []string{two, one}, false},
		{"the same instances, another pool", []string{heavy20, heavy100}, false},
		{"a run against itself", []string{one, one}, false},
	} {
		var out bytes.Buffer
		if _, err := Compare(CompareConfig{Runs: tc.runs, Out: &out}); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(out.String()), " ")
		if got := strings.Contains(text, said); got != tc.want {
			t.Errorf("%s: says %q: %v, want %v\n%s", tc.name, said, got, tc.want, out.String())
		}
		if tc.want && !strings.Contains(text, "succeeded at 46.1 req/s against 40.2 req/s (no significant change)") {
			t.Errorf("%s: the note states no throughputs:\n%s", tc.name, out.String())
		}
	}
}

// corpusRun copies a run.db of the diagnose corpus into a run directory.
func corpusRun(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "diagnose", "testdata", "corpus", name+".db"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "run.db"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

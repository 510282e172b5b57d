package comparerun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
)

// TestSwappedTrialRunsGiveMirroredVerdicts is trial B: one server at 30 ms,
// then at 10 ms (testdata/trialB, 9 compared seconds of 80 req/s each).
// 30 → 10 ms read "p95 ~ [-66.0%, -43.9%] < noise 59.1%", no change,
// while 10 → 30 ms read +115 % and failed the gate: a fall had to reach
// the floor itself, a rise only its ratio. Either order must give the
// other's verdicts mirrored, and the gate fails only the slower B.
func TestSwappedTrialRunsGiveMirroredVerdicts(t *testing.T) {
	dir := t.TempDir()
	slow, fast := copyRun(t, dir, "trialB", "30ms"), copyRun(t, dir, "trialB", "10ms")
	gate := "p(95) +10%"
	codeFall, fall := compareJSON(t, []string{slow, fast}, gate)
	codeRise, rise := compareJSON(t, []string{fast, slow}, gate)
	if codeFall != 0 || codeRise != app.ExitThresholdFailed {
		t.Errorf("gate %q: exit %d for 30 → 10 ms (want 0), %d for 10 → 30 ms (want %d)", gate, codeFall, codeRise, app.ExitThresholdFailed)
	}
	// The JSON document carries the gates' verdicts, not only the terminal.
	if len(fall.Gates) != 1 || fall.Gates[0].Failed || len(rise.Gates) != 1 || !rise.Gates[0].Failed || rise.Gates[0].Reason == "" {
		t.Errorf("gates in the JSON: 30 → 10 ms %+v, 10 → 30 ms %+v; want one each, only the second failed, with its reason", fall.Gates, rise.Gates)
	}
	mirror := map[string]string{"better": "worse", "worse": "better", "~": "~", "": ""}
	for r, row := range fall.Rows {
		for k, m := range row.Metrics {
			x, y := m.Groups[1], rise.Rows[r].Metrics[k].Groups[1]
			if x.Verdict != mirror[y.Verdict] || x.Significant != y.Significant {
				t.Errorf("%s %s: 30 → 10 ms %q, 10 → 30 ms %q", row.Name, m.Metric, x.Verdict, y.Verdict)
			}
			if m.Metric == "p95" && x.Verdict != "better" {
				t.Errorf("%s p95: 30 → 10 ms %q, want better", row.Name, x.Verdict)
			}
		}
	}
}

// copyRun copies testdata/trial/name/run.db into dir, where opening it may
// write beside it.
func copyRun(t *testing.T, dir, trial, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", trial, name, "run.db"))
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

// TestCompareHTMLShowsTheGates: the page lists each gate with its mark and
// reason; before, the verdicts went only to stderr beside the page.
func TestCompareHTMLShowsTheGates(t *testing.T) {
	dir := t.TempDir()
	fast, slow := copyRun(t, dir, "trialB", "10ms"), copyRun(t, dir, "trialB", "30ms")
	var out bytes.Buffer
	code, err := Compare(CompareConfig{Runs: []string{fast, slow}, Format: "html", Out: &out, Gates: []string{"p(95) +10%"}})
	if err != nil || code != app.ExitThresholdFailed {
		t.Fatalf("exit %d, %v; want %d", code, err, app.ExitThresholdFailed)
	}
	page := out.String()
	for _, want := range []string{"<h2>Regression gates</h2>", `<td class="mono worse">✗</td><td class="mono">p(95) &#43;10%</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

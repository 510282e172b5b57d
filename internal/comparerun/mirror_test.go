package comparerun

import (
	"os"
	"path/filepath"
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
	slow, fast := copyRun(t, dir, "30ms"), copyRun(t, dir, "10ms")
	gate := "p(95) +10%"
	codeFall, fall := compareJSON(t, []string{slow, fast}, gate)
	codeRise, rise := compareJSON(t, []string{fast, slow}, gate)
	if codeFall != 0 || codeRise != app.ExitThresholdFailed {
		t.Errorf("gate %q: exit %d for 30 → 10 ms (want 0), %d for 10 → 30 ms (want %d)", gate, codeFall, codeRise, app.ExitThresholdFailed)
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

// copyRun copies a run.db of testdata/trialB into dir, where opening it
// may write beside it.
func copyRun(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "trialB", name, "run.db"))
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

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareRunsGivenEnvironment is the examples' workflow: two runs of a
// test whose base URL and hold come from -e, then compare. The stored test
// has its -e values redacted, so compare takes the holds kept with each run
// and never parses the test again: it compares the test's hold.
func TestCompareRunsGivenEnvironment(t *testing.T) {
	srv := target(t)
	dir := t.TempDir()
	test := writeTest(t, dir, "held.yaml", `
base_url: '{{ env("BASE_URL", "http://127.0.0.1:1") }}'
scenarios:
  s:
    model: arrival-rate
    start_rate: 20
    stages:
      - {duration: '{{ env("RAMP", "1m") }}', target: 40}
      - {duration: '{{ env("HOLD", "9m") }}', target: 40}
    flow:
      - get: /ok
`)
	var runs []string
	for range 2 {
		r := loadlens(t, dir, "run", test, "-e", "BASE_URL="+srv.URL, "-e", "RAMP=1s", "-e", "HOLD=5s", "--quiet", "--no-dashboard", "--results", "results")
		if r.code != 0 {
			t.Fatalf("run exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(dir, "results", "*", "run.db"))
	for _, d := range dirs {
		runs = append(runs, filepath.Dir(d))
	}
	if len(runs) != 2 {
		t.Fatalf("runs %v", runs)
	}
	r := loadlens(t, dir, append([]string{"compare", "--format", "json"}, runs...)...)
	if r.code != 0 {
		t.Fatalf("compare exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		Runs []struct {
			Name, Source, Note string
			First              int `json:"first_second"`
			Last               int `json:"last_second"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	for _, run := range rep.Runs {
		if run.Source != "stages" || run.First < 1 || run.Last > 6 {
			t.Errorf("run %s compared %d–%d from %q (%s); want the hold of the test's stages", run.Name, run.First, run.Last, run.Source, run.Note)
		}
	}
	if len(rep.Runs) != 2 {
		t.Errorf("compare reported %d runs: %s", len(rep.Runs), fmt.Sprint(rep.Runs))
	}
}

// TestNoRunThereIsBadInput: a run path with no run.db (a typo) is the
// user's mistake, exit 2 with where the runs are, for every command that
// reads a run.
func TestNoRunThereIsBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"summary", "results/nope"},
		{"report", "results/nope"},
		{"export", "results/nope", "--format", "csv"},
		{"compare", "results/nope", "results/nope2"},
	} {
		t.Run(args[0], func(t *testing.T) {
			r := loadlens(t, dir, args...)
			if r.code != 2 || !strings.Contains(r.stderr, "no run at results/nope") {
				t.Errorf("exit %d, stderr %q; want 2 and where the runs are", r.code, r.stderr)
			}
		})
	}
}

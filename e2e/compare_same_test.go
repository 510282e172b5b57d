package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// TestCompareSameTestThreeTimes is the new user's trial: the same short
// open-model test run three times against one in-process server is called
// unchanged by compare and passes 'p(95) +10%'; a run against the server
// made 2× slower is a significant p50 and p95 regression and fails it.
// The host must be quiet in every run, not on average: one busy run among
// quiet ones is a real change the gate rightly sees.
func TestCompareSameTestThreeTimes(t *testing.T) {
	testkit.JudgeOnQuietVM(t, func() (at testkit.Attempt) {
		var problems []string
		dir := t.TempDir()
		run := func(delay time.Duration, name string) string {
			return runSlowTarget(t, &at, dir, name, delay, "100", "12s")
		}
		a, b, c := run(5*time.Millisecond, "a"), run(5*time.Millisecond, "b"), run(5*time.Millisecond, "c")
		slow := run(10*time.Millisecond, "slow")
		compare := func(runs ...string) (int, map[string][]jsonValue, string) {
			args := append([]string{"compare", "--format", "json", "--fail-on-regression", "p(95) +10%"}, runs...)
			r := loadlens(t, dir, args...)
			var rep struct {
				Rows []struct {
					Metrics []struct {
						Metric string      `json:"metric"`
						Groups []jsonValue `json:"groups"`
					} `json:"metrics"`
				} `json:"rows"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Rows) == 0 {
				t.Fatalf("compare exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
			out := map[string][]jsonValue{} // by the metric's name: rows are added over time
			for _, l := range rep.Rows[0].Metrics {
				out[l.Metric] = l.Groups
			}
			return r.code, out, r.stdout + r.stderr
		}
		code, lines, out := compare(a, b, c)
		if code != 0 {
			problems = append(problems, fmt.Sprintf("three runs of one server: the gate exited %d\n%s", code, out))
		}
		for m, groups := range lines {
			for g, v := range groups[1:] {
				if v.Significant {
					problems = append(problems, fmt.Sprintf("three runs of one server: %s of run %d called changed (%+.1f%%)", m, g+2, v.DeltaPct))
				}
			}
		}
		code, lines, out = compare(a, slow)
		if code != 99 {
			problems = append(problems, fmt.Sprintf("a 2× slower server: the gate exited %d, want 99\n%s", code, out))
		}
		for _, m := range []string{"p50", "p95"} {
			if len(lines[m]) < 2 {
				problems = append(problems, fmt.Sprintf("a 2× slower server: compare gives no %s\n%s", m, out))
				continue
			}
			if v := lines[m][1]; v.Verdict != "worse" {
				problems = append(problems, fmt.Sprintf("a 2× slower server: %s is %q (%+.1f%%, not tested: %q), want a significant regression", m, v.Verdict, v.DeltaPct, v.NotTested))
			}
		}
		at.Problems = problems
		return at
	})
}

// jsonValue is the part of one compared figure the test reads.
type jsonValue struct {
	Significant bool    `json:"significant"`
	Verdict     string  `json:"verdict"`
	DeltaPct    float64 `json:"delta_pct"`
	NotTested   string  `json:"not_tested"`
}

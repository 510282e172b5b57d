package capacityrun

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/report"
)

// TestTrialA40StarvedTargetIsNotJudged reads step 1 (20/s) of two of
// trial A40's searches: a CPU-bound Go service (4 workers × 10 ms,
// GOMAXPROCS 1, taskset -c 1) on 127.0.0.1, on a 2-core host other jobs
// kept at load 10–25, which used 0.07–0.34 of its core. Without
// node_exporter the step read "no bottleneck found" and FAIL, and the
// search "highest sustainable rate 6.56 iterations/s … converged", exit 0;
// with it, its diagnosis said "App CPU taken by other processes … 83.3% by
// the host's other processes" and the step read "FAIL, the target's". Run
// again while the host stays that busy, the search must end not determined
// (exit 3), the target never judged. fixA2's rerun of the first search
// judged its step 5 at 45/s "FAIL, the target's: … fell behind" while the
// app used 0.24–0.62 of its core and the host was full, and the second
// rerun's step 3 at 30/s (0.16–0.43 of its core, queued at 0:13–0:15)
// converged at 28.8 iterations/s, exit 0: both are starved too.
func TestTrialA40StarvedTargetIsNotJudged(t *testing.T) {
	for _, tc := range []struct {
		db   string
		rate float64
	}{{"cpu-20-starved", 20}, {"cpu-20-starved-node", 20}, {"cpu-45-starved-live", 45}, {"cpu-30-starved-live", 30}} {
		t.Run(tc.db, func(t *testing.T) {
			in, err := app.LoadRun(copyDB(t, tc.db))
			if err != nil {
				t.Fatal(err)
			}
			step := stepResult(in, capacity.Step{Rate: tc.rate, Hold: 15 * time.Second}, "")
			if step.Passed || !strings.Contains(step.Starved, "CPU taken by other processes") {
				t.Fatalf("the recorded step: passed %v, starved %q; want a failure whose target the host's other processes starved", step.Passed, step.Starved)
			}
			cfg := capacity.Config{StartRate: tc.rate, Factor: 1.5, Hold: 15 * time.Second, Budget: 150 * time.Second,
				LatencyLimit: 100 * time.Millisecond, Percentile: 95, RetryPause: time.Millisecond}
			res, err := capacity.Search(context.Background(), cfg, &results{rs: []capacity.StepResult{step}})
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range res.Steps {
				if st.Judged || st.Stands != "" || !strings.Contains(st.Busy, "the target was starved: ") {
					t.Errorf("run %d: judged %v, stands %q, busy %q; want not judged, the target starved", i+1, st.Judged, st.Stands, st.Busy)
				}
			}
			if len(res.Steps) != 3 || res.Stop != capacity.HostBusy || res.Highest != 0 || res.LowestFailing != 0 {
				t.Fatalf("%d runs, stop %q, highest %v, lowest failing %v; want 3 runs, host too busy, nothing judged",
					len(res.Steps), res.Stop, res.Highest, res.LowestFailing)
			}
			if code, _ := searchExitCode(nil, nil, res); code != app.ExitNotDetermined {
				t.Errorf("exit %d, want %d (not determined)", code, app.ExitNotDetermined)
			}
			var b strings.Builder
			if err := report.WriteCapacityText(&b, res); err != nil {
				t.Fatal(err)
			}
			want := "not determined: the host was too busy: other processes took the target's CPU at " + capacity.Iterations(tc.rate)
			if text := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(text, want) {
				t.Errorf("the output lacks %q:\n%s", want, b.String())
			}
		})
	}
}

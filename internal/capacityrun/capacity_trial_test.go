package capacityrun

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
	"github.com/loadlens/loadlens/internal/report"
)

// recordedStep is a step of a recorded search with the figures
// capacity.json leaves out, which the search judges a shortfall on.
type recordedStep struct {
	capacity.StepResult
	Offered, Completed, HoldDropped int64
	IterationMean, Service          time.Duration
	Seconds                         []capacity.Second
}

// trialA39Steps reads the 16 steps of trial A39's search, in the order
// run: capacity.json's figures, and from each step's run.db what it leaves
// out (the hold's iterations and seconds, without their late arrivals:
// no step answered an error) and GeneratorHeld, which the trial's build
// did not read.
func trialA39Steps(t *testing.T) []capacity.StepResult {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "trial-a39-steps.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []recordedStep
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	steps := make([]capacity.StepResult, len(recs))
	for i, r := range recs {
		steps[i] = r.StepResult
		steps[i].Offered, steps[i].Completed, steps[i].HoldDropped = r.Offered, r.Completed, r.HoldDropped
		steps[i].IterationMean, steps[i].Service, steps[i].Seconds = r.IterationMean, r.Service, r.Seconds
	}
	return steps
}

// TestTrialA39SearchReplayed replays trial A39's search: a healthy service
// whose fixed-rate sweep held 3,844/s (p95 74ms), on a host other work
// kept 100 % busy, under p(95)<=100ms and no errors, --hold 15s --budget 4m.
// As its build judged the steps (no GeneratorHeld), 13 and 15 fail as
// "the target's" and the budget ends on an unjudged run of 3,844/s: the
// search now says "not determined: at least 3,417 iterations/s" and exits
// 3, where it read "3,417 (… failed at 4,271)" and exited 0. With the
// generator's held pool read, step 13 is not judged either: its third
// busy run at 5,126/s ends the search "host too busy", and no step is the
// target's.
func TestTrialA39SearchReplayed(t *testing.T) {
	tests := []struct {
		name      string
		held      bool // the steps say GeneratorHeld, as their run.db does
		steps     int
		stop      capacity.StopReason
		lowest    float64
		unjudged  float64
		headline  string
		targetOwn int // runs judged the target's on a busy host
	}{
		{"as the trial's build judged it", false, 16, capacity.BudgetSpent, 4271.484375, 3844.3359375,
			"not determined: at least 3,417 iterations/s, 3,409 req/s (3,844 iterations/s above it was not judged", 2},
		{"with the generator's held pool read", true, 13, capacity.HostBusy, 0, 5125.78125,
			"not determined: the load generator's host was too busy to generate 5,126 iterations/s (3 attempts); the SLO held up to 3,417 iterations/s", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recorded := trialA39Steps(t)
			for i := range recorded {
				recorded[i].GeneratorHeld = recorded[i].GeneratorHeld && tc.held
			}
			cfg := capacity.Config{StartRate: 200, Factor: 1.5, Hold: 15 * time.Second, Budget: 4 * time.Minute, MaxErrorRate: 1e-9,
				LatencyLimit: 100 * time.Millisecond, Percentile: 95, RetryPause: time.Millisecond}
			res, err := capacity.Search(context.Background(), cfg, &results{rs: recorded})
			if err != nil {
				t.Fatal(err)
			}
			own := 0
			for i, st := range res.Steps {
				if st.Rate != recorded[i].Rate {
					t.Fatalf("run %d at %v, the trial ran %v there: the replay left the trial's path", i+1, st.Rate, recorded[i].Rate)
				}
				if st.Busy != "" && st.Stands != "" {
					own++
				}
			}
			if len(res.Steps) != tc.steps || res.Stop != tc.stop || res.Highest != 3417.1875 || res.LowestFailing != tc.lowest || res.Unjudged != tc.unjudged {
				t.Fatalf("%d runs, stop %q, highest %v, lowest failing %v, unjudged %v; want %d, %q, 3417.1875, %v, %v",
					len(res.Steps), res.Stop, res.Highest, res.LowestFailing, res.Unjudged, tc.steps, tc.stop, tc.lowest, tc.unjudged)
			}
			if own != tc.targetOwn {
				t.Errorf("%d runs on the busy host judged the target's, want %d", own, tc.targetOwn)
			}
			if code, _ := searchExitCode(nil, nil, res); code != app.ExitNotDetermined {
				t.Errorf("exit %d, want %d (not determined)", code, app.ExitNotDetermined)
			}
			var b strings.Builder
			if err := report.WriteCapacityText(&b, res); err != nil {
				t.Fatal(err)
			}
			if text := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(text, tc.headline) {
				t.Errorf("the output lacks %q:\n%s", tc.headline, b.String())
			}
		})
	}
}

// TestRecordedGeneratorQueueIsNotJudged reads trial A39's step 15 (4,271/s,
// 16,162 iterations dropped while 4,781 of loadlens's goroutines waited
// for a CPU) from its run.db and judges it as the search would: its pool
// held by the generator, it is run again, not "FAIL, the target's: its
// mean latency 2.89s less …".
func TestRecordedGeneratorQueueIsNotJudged(t *testing.T) {
	in, err := app.LoadRun(copyDB(t, "healthy-4271-genqueue"))
	if err != nil {
		t.Fatal(err)
	}
	step := stepResult(in, capacity.Step{Rate: 4271.484375, Hold: 15 * time.Second}, "")
	if !step.GeneratorHeld || step.Passed || step.Dropped != 16162 {
		t.Fatalf("the recorded step: held %v, passed %v, dropped %d; want a failure that dropped 16,162 while loadlens held its pool",
			step.GeneratorHeld, step.Passed, step.Dropped)
	}
	step.PoolBelowMax = true // what poolBelowMax says of it with the test's max_vus
	pass := capacity.StepResult{Requests: 40000, Throughput: 2848, Passed: true}
	cfg := capacity.Config{StartRate: 4271.484375 / 1.5, Factor: 1.5, Hold: 15 * time.Second, MaxRate: 4271.484375, MaxErrorRate: 1e-9,
		LatencyLimit: 100 * time.Millisecond, RetryPause: time.Millisecond}
	res, err := capacity.Search(context.Background(), cfg, &results{rs: []capacity.StepResult{pass, step, pass}})
	if err != nil {
		t.Fatal(err)
	}
	if run := res.Steps[1]; run.Judged || !run.Retried || run.Stands != "" || !strings.Contains(run.Busy, "16,162 iterations were dropped") {
		t.Fatalf("judged %v, retried %v, stands %q, busy %q; want run again on the generator's queue", run.Judged, run.Retried, run.Stands, run.Busy)
	}
}

package capacity

import (
	"context"
	"strings"
	"testing"
	"time"
)

// failingServer answers fast but fails a share of each step's requests,
// under an SLO that only counts (the outside trial's cap.yaml: http_reqs
// count > 10, iterations rate > 5), so its thresholds pass every step.
type failingServer struct {
	share func(rate float64) float64 // the share of requests that fail at a rate
}

func (f failingServer) RunStep(_ context.Context, s Step) (StepResult, error) {
	n := int64(s.Rate * s.Hold.Seconds())
	r := StepResult{Rate: s.Rate, Throughput: s.Rate, Requests: n, ErrorRate: f.share(s.Rate), Passed: true,
		P95: 2 * time.Millisecond, P99: 3 * time.Millisecond, Mean: time.Millisecond, GeneratorCPU: 0.1, LagP99: time.Millisecond}
	r.Concurrency = r.Throughput * r.Mean.Seconds()
	return r, nil
}

// TestErrorsAreNotCapacity is the outside trial's all-503 target: with a
// counter-only SLO every step passed at 100 % errors, the search said "at
// least 2,560/s" and fitted a USL with R² 0.998. A step whose requests
// failed past the error budget fails; a first step where all failed ends
// the search; no knee or fit rests on such steps.
func TestErrorsAreNotCapacity(t *testing.T) {
	cfg := Config{StartRate: 20, Factor: 2, Hold: 2 * time.Second, Budget: 16 * time.Second}
	tests := []struct {
		name    string
		budget  float64 // the SLO's error budget; 0: none (1 %)
		share   func(rate float64) float64
		stop    StopReason
		steps   int
		highest float64
		failed  string // in FirstFailure
	}{
		{"every request fails", 0, func(float64) float64 { return 1 }, TargetFailed, 1, 0,
			"error budget: errors <= 1% (every request failed, 40 sent)"},
		{"5% fail, no budget in the SLO", 0, func(float64) float64 { return 0.05 }, NothingPassed, 5, 0,
			"error budget: errors <= 1% (5.00%)"},
		{"5% fail within the SLO's 10%", 0.1, func(float64) float64 { return 0.05 }, BudgetSpent, 8, 2560, ""},
		// A server that sheds load past 300/s with fast 503s.
		{"shedding past 300/s", 0, func(r float64) float64 { return max(0, 1-300/r) }, BudgetSpent, 8, 300,
			"error budget: errors <= 1% (6.25%)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.MaxErrorRate = tc.budget
			r, err := Search(context.Background(), c, failingServer{share: tc.share})
			if err != nil {
				t.Fatal(err)
			}
			if r.Stop != tc.stop || len(r.Steps) != tc.steps || r.Highest != tc.highest {
				t.Fatalf("stop %q after %d steps, highest %v (%s); want %q after %d, %v", r.Stop, len(r.Steps), r.Highest, r.StopDetail,
					tc.stop, tc.steps, tc.highest)
			}
			if got := strings.Join(r.FirstFailure, "; "); !strings.Contains(got, tc.failed) || (tc.failed == "") != (got == "") {
				t.Errorf("first failure %q, want %q", got, tc.failed)
			}
			for _, s := range r.Steps {
				if s.Passed && s.ErrorRate > c.MaxErrorRate && s.ErrorRate > 0.01 {
					t.Errorf("the step at %v/s passed with %v errors", s.Rate, s.ErrorRate)
				}
			}
			if tc.highest == 0 && (r.USL != nil || r.Knee != nil) {
				t.Errorf("a fit (%+v) or a knee (%+v) on failed steps", r.USL, r.Knee)
			}
		})
	}
	r, _ := Search(context.Background(), cfg, failingServer{share: func(float64) float64 { return 1 }})
	if !strings.Contains(r.StopDetail, "every request failed at the first step (20 iterations/s, 40 requests sent)") {
		t.Errorf("stop detail %q does not say the target failed at the first step", r.StopDetail)
	}
}

// TestTheErrorBudgetIsNamedWhateverFailed: a step the runner already
// failed without naming a threshold (a run in which every request failed
// never passes) still says it broke the error budget, and one whose SLO
// named http_req_failed does not say it twice.
func TestTheErrorBudgetIsNamedWhateverFailed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		failed []string
		want   []string
	}{
		{"no threshold named", nil, []string{"error budget: errors <= 1% (every request failed, 40 sent)"}},
		{"a latency threshold", []string{"http_req_duration: p(95) < 50ms"},
			[]string{"http_req_duration: p(95) < 50ms", "error budget: errors <= 1% (every request failed, 40 sent)"}},
		{"the SLO's own", []string{"http_req_failed: rate < 0.05 (100.00%)"}, []string{"http_req_failed: rate < 0.05 (100.00%)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &scripted{results: []StepResult{{Requests: 40, ErrorRate: 1, Throughput: 20, FailedThresholds: tc.failed,
				GeneratorCPU: 0.1, LagP99: time.Millisecond}}}
			r, err := Search(context.Background(), Config{StartRate: 20, Hold: 2 * time.Second}, run)
			if err != nil {
				t.Fatal(err)
			}
			if r.Stop != TargetFailed || strings.Join(r.FirstFailure, "; ") != strings.Join(tc.want, "; ") {
				t.Fatalf("stop %q, first failure %q; want target failed, %q", r.Stop, r.FirstFailure, tc.want)
			}
		})
	}
}

package capacity

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestTimeoutsPastTheGeneratorsDelaysAreTheTargets: a failing step that
// dropped iterations while loadlens held its own VU pool is the target's
// when it left requests unanswered for a timeout far longer than the
// generator's lag and stall explain (run 7's shop at 5,767/s: 17–22 %
// unanswered for 5 s beside a lag p99 of 144 ms); a timeout the delays come
// near, or timeouts within the error budget, leave it unjudged as before.
func TestTimeoutsPastTheGeneratorsDelaysAreTheTargets(t *testing.T) {
	timedOut := func(n int64, timeout time.Duration) StepResult {
		r := trialA39Step13
		r.GeneratorHeld, r.TimedOut, r.Timeout = true, n, timeout
		r.ErrorRate = float64(n) / float64(r.Requests)
		r.LagP99, r.Stall = 144*time.Millisecond, 300*time.Millisecond
		return r
	}
	tests := []struct {
		name   string
		step   StepResult
		budget float64
		judged bool
		stands string
	}{
		{"a fifth unanswered for 5s beside a 144ms lag", timedOut(12000, 5*time.Second), 1e-9, true,
			"it left 12,000 of the 63,175 requests unanswered for their 5.00s timeout (18.99%, where the SLO allows none), where the generator's delays explain at most 888ms of a wait (twice the lag p99 144ms and twice the longest stall 300ms)"},
		{"unanswered for 1s: the delays explain near half of it", timedOut(12000, time.Second), 1e-9, false, ""},
		{"timeouts within the budget", timedOut(300, 5*time.Second), 0.01, false, ""},
		{"no timeouts: the generator the queue (trial A39)", timedOut(0, 5*time.Second), 1e-9, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rate := 5125.78
				pass := StepResult{Throughput: rate / 1.5, P95: 20 * time.Millisecond, Requests: 1000, Passed: true}
				cfg := Config{StartRate: rate / 1.5, Factor: 1.5, Hold: 15 * time.Second, MaxRate: rate, MaxErrorRate: tc.budget,
					LatencyLimit: 100 * time.Millisecond, Precision: 0.5}
				r, err := Search(context.Background(), cfg, &scripted{results: []StepResult{pass, tc.step, pass}})
				if err != nil {
					t.Fatal(err)
				}
				run := r.Steps[1]
				if run.Judged != tc.judged || run.Retried == tc.judged || !strings.Contains(run.Stands, tc.stands) {
					t.Fatalf("judged %v, retried %v, stands %q; want judged %v, stands %q", run.Judged, run.Retried, run.Stands, tc.judged, tc.stands)
				}
				if tc.judged && r.LowestFailing != rate {
					t.Errorf("lowest failing %v, want %v", r.LowestFailing, rate)
				}
			})
		})
	}
}

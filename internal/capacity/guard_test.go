package capacity

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestAStepItsDiagnosisDistrustsIsNeverTheBoundary is the search:
// a failing step whose own diagnosis said the generator "waited for a CPU
// 38× as long as it ran … the numbers are not the target's" set the
// boundary, though its lag was small and its mean far past the limit (the
// rule that keeps a failure the lag cannot explain). Such a run is run
// again; when every attempt is distrusted the rate is not judged and the
// search stops, saying so, never with that rate as the first failure.
func TestAStepItsDiagnosisDistrustsIsNeverTheBoundary(t *testing.T) {
	server := queueServer{k: 4, service: 50 * time.Millisecond, slo: 200 * time.Millisecond, even: true} // 80/s
	cfg := Config{StartRate: 10.3, Factor: 1.5, Hold: 30 * time.Second, LatencyLimit: server.slo}
	quiet, err := Search(context.Background(), cfg, server)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		host          *busyHost
		stop          StopReason
		lowestFailing float64 // 0: none judged
	}{
		{"the first run of each rate", &busyHost{Runner: server, kind: "diagnosis", first: true}, quiet.Stop, quiet.LowestFailing},
		{"every run from 30/s", &busyHost{Runner: server, kind: "diagnosis", from: 30}, HostBusy, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, err := Search(context.Background(), cfg, tc.host)
				if err != nil {
					t.Fatal(err)
				}
				if r.Stop != tc.stop || r.LowestFailing != tc.lowestFailing {
					t.Fatalf("stop %q (%s), lowest failing %v; want %q, %v", r.Stop, r.StopDetail, r.LowestFailing, tc.stop, tc.lowestFailing)
				}
				for _, s := range r.Steps {
					if s.Diagnosis != "" && (s.Judged || !strings.Contains(s.Busy, "the step's diagnosis: The generator's host was short of CPU")) {
						t.Fatalf("a run its diagnosis distrusts: judged %v, busy %q", s.Judged, s.Busy)
					}
				}
				if tc.stop == HostBusy && (r.Highest >= 30 || !strings.Contains(r.StopDetail, "38× as long as they ran")) {
					t.Errorf("highest %v, stop detail %q", r.Highest, r.StopDetail)
				}
			})
		})
	}
}

// TestTheKneeIsNeverAboveTheFirstFailingRate is the "knee 1/s"
// beside "first failing 0.578/s": steps failing an SLO part that is not
// latency (a check) answered as fast as the passing ones, so the climb at the first step (2/s) put the knee at 1/s,
// above failures. Past the lowest failing rate no knee is looked for.
func TestTheKneeIsNeverAboveTheFirstFailingRate(t *testing.T) {
	ms := time.Millisecond
	server := byRate(func(rate float64) StepResult {
		r := StepResult{Throughput: rate, P95: 10 * ms, P99: 12 * ms, Mean: 8 * ms, Requests: int64(rate * 30), Passed: true}
		switch {
		case rate >= 1.5:
			r.P95, r.P99, r.Mean, r.Passed = 300*ms, 400*ms, 200*ms, false
			r.FailedThresholds = []string{"http_req_duration: p(95) < 100ms (p(95)=300ms)"}
		case rate >= 0.57:
			r.Passed, r.FailedThresholds = false, []string{"checks: rate > 0.99 (rate=97.0%)"}
		}
		r.Concurrency = r.Throughput * r.Mean.Seconds()
		return r
	})
	r, err := Search(context.Background(), Config{StartRate: 2, Hold: 30 * time.Second}, server)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stop != Converged || r.Highest != 0.5625 || r.LowestFailing != 0.578125 {
		t.Fatalf("stop %q (%s), %v–%v; want converged between 0.5625 and 0.578125", r.Stop, r.StopDetail, r.Highest, r.LowestFailing)
	}
	if r.Knee != nil && r.Knee.Rate >= r.LowestFailing {
		t.Fatalf("knee at %v, above the lowest failing rate %v", r.Knee.Rate, r.LowestFailing)
	}
	golden(t, "knee-below-failure", r) // report's tests render it
}

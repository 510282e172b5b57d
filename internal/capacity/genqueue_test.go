package capacity

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// trialA39Step13 and trialA39Step15 are two failing steps of trial A39's
// search against a healthy service whose fixed-rate sweep held 3,844/s,
// on a host that other work kept 100 % busy (capacity.json and run.db of
// steps 13 and 15). Each dropped a sixth or more of its iterations while
// loadlens held its own VU pool, thousands of VUs busy and its goroutines
// waiting for a CPU; each was judged "FAIL, the target's", on a shortfall
// (13) or a latency (15) the generator's own queue explains.
var (
	trialA39Step13 = StepResult{Throughput: 3680.27, P95: 2848767 * time.Microsecond, P99: 4206591 * time.Microsecond,
		Mean: 614930 * time.Microsecond, Requests: 63175, Dropped: 13712, GeneratorCPU: 0.102, LagP99: 192767 * time.Microsecond,
		Stall: 469762 * time.Microsecond, HostCPU: 0.9997, HostKnown: true, FailedThresholds: []string{"http_req_duration: p(95)<=100ms (p(95)=2.85s)"},
		PoolBelowMax: true, DropWhy: "the generator could not keep up: the VU pool was held at 7,971 because 159 goroutines of loadlens waited for a CPU",
		Offered: 76887, Completed: 55204, HoldDropped: 13712, IterationMean: time.Millisecond, Seconds: lastLate(15, 190*time.Millisecond)}
	trialA39Step15 = StepResult{Throughput: 2880.67, P95: 5881855 * time.Microsecond, P99: 7626751 * time.Microsecond,
		Mean: 2888717 * time.Microsecond, Requests: 47911, Dropped: 16162, GeneratorCPU: 0.110, LagP99: 808959 * time.Microsecond,
		Stall: 536871 * time.Microsecond, HostCPU: 0.9997, HostKnown: true, FailedThresholds: []string{"http_req_duration: p(95)<=100ms (p(95)=5.88s)"},
		PoolBelowMax: true, DropWhy: "the generator could not keep up: the VU pool was held at 14,116 because 4,781 goroutines of loadlens waited for a CPU"}
)

// lastLate is a hold of n seconds whose last arrivals came late by late.
func lastLate(n int, late time.Duration) []Second {
	secs := make([]Second, n)
	secs[n-1].Lag = late
	return secs
}

// TestAFailureTheGeneratorQueuedIsNotTheTargets: a failing step that
// dropped iterations past the limit while loadlens held its own VU pool is
// not judged but run again; the same figures with a pool loadlens did not
// hold stand as the target's, as before. Before, trial A39's steps 13 and
// 15 read "FAIL, the target's: … the generator was the queue, not the
// target" and set the boundary at 4,271/s.
func TestAFailureTheGeneratorQueuedIsNotTheTargets(t *testing.T) {
	held := func(r StepResult) StepResult { r.GeneratorHeld = true; return r }
	tests := []struct {
		name   string
		rate   float64
		step   StepResult
		judged bool
		stands string // in the run's Stands when judged
		busy   string // in the run's Busy
	}{
		{"step 13: short, the generator the queue", 5125.78, held(trialA39Step13), false, "", "13,712 iterations were dropped"},
		{"step 13's figures, the pool not held by loadlens", 5125.78, trialA39Step13, true, "the target fell behind", "scheduling lag p99 193ms"},
		{"step 15: slow, the generator the queue", 4271.48, held(trialA39Step15), false, "", "16,162 iterations were dropped"},
		{"step 15's figures, the pool not held by loadlens", 4271.48, trialA39Step15, true, "its mean latency 2.89s less twice", "scheduling lag p99 809ms"},
		// under every other limit, drops while loadlens held its pool say the host was busy
		{"held drops alone", 1000, StepResult{Throughput: 900, P95: time.Second, Mean: time.Second, Requests: 13500, Dropped: 1500,
			FailedThresholds: []string{"p(95)"}, PoolBelowMax: true, GeneratorHeld: true}, false, "", "1,500 iterations were dropped"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				pass := StepResult{Throughput: tc.rate / 1.5, P95: 20 * time.Millisecond, Requests: 1000, Passed: true}
				cfg := Config{StartRate: tc.rate / 1.5, Factor: 1.5, Hold: 15 * time.Second, MaxRate: tc.rate, MaxErrorRate: 1e-9,
					LatencyLimit: 100 * time.Millisecond, Precision: 0.5}
				r, err := Search(context.Background(), cfg, &scripted{results: []StepResult{pass, tc.step, pass}})
				if err != nil {
					t.Fatal(err)
				}
				run := r.Steps[1]
				if run.Judged != tc.judged || run.Retried == tc.judged || !strings.Contains(run.Stands, tc.stands) || (run.Stands == "") == tc.judged {
					t.Fatalf("judged %v, retried %v, stands %q; want judged %v, stands %q", run.Judged, run.Retried, run.Stands, tc.judged, tc.stands)
				}
				if !strings.Contains(run.Busy, tc.busy) {
					t.Errorf("busy %q, want %q in it", run.Busy, tc.busy)
				}
				if !tc.judged && (r.LowestFailing != 0 || r.Highest != tc.rate) {
					t.Errorf("highest %v, lowest failing %v; want the retry's pass at %v and no failure", r.Highest, r.LowestFailing, tc.rate)
				}
			})
		})
	}
}

// TestUnjudgedAbove finds the rate a search ended without judging between
// its highest pass and its lowest failure: trial A39's search passed
// 3,417/s, failed 4,271/s and spent its budget on a busy run of 3,844/s.
func TestUnjudgedAbove(t *testing.T) {
	pass := func(rate float64) Record {
		return Record{StepResult: StepResult{Rate: rate, Passed: true}, Judged: true}
	}
	fail := func(rate float64) Record { return Record{StepResult: StepResult{Rate: rate}, Judged: true} }
	busy := func(rate float64) Record {
		return Record{StepResult: StepResult{Rate: rate}, Busy: "lag", Retried: true}
	}
	tests := []struct {
		name                   string
		steps                  []Record
		highest, lowestFailing float64
		want                   float64
	}{
		{"trial A39: the budget ended on a busy 3,844", []Record{pass(3417), busy(5126), fail(5126), busy(4271), fail(4271), busy(3844)}, 3417, 4271, 3844},
		{"a busy run judged on its retry", []Record{pass(100), busy(150), fail(150)}, 100, 150, 0},
		{"busy runs above the failure say nothing", []Record{pass(100), fail(150), busy(200)}, 100, 150, 0},
		{"the lowest of two", []Record{pass(100), busy(200), busy(150)}, 100, 0, 150},
		{"a busy run below the pass", []Record{busy(50), pass(100), fail(150)}, 100, 150, 0},
		// an idle generator's flattered pass is the VU ceiling's, judged apart
		{"a pass flattered by drops on an idle generator", []Record{pass(100), {StepResult: StepResult{Rate: 150, Passed: true}, Saturation: "dropped"}}, 100, 0, 0},
		{"host too busy at the first step", []Record{busy(100), busy(100), busy(100)}, 0, 0, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := unjudgedAbove(tc.steps, tc.highest, tc.lowestFailing); got != tc.want {
				t.Errorf("unjudged %v, want %v", got, tc.want)
			}
		})
	}
}

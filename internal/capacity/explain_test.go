package capacity

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestLateArrivalsExplainWhatTheyRaised covers how many refusals a
// second's late arrivals explain, against the target's service time: a
// burst raises what a target holds only by the arrivals later than a
// request takes it, so only those explain a refusal, each one. Each case
// is one busy run at 300 iterations/s (a gap of 3.3ms) of a shedding
// service, 2,400 requests under a budget of 1 % (24), whose refusals r
// came in its fourth second with late arrivals explaining k of them; it
// is run again when they explain all but the budget, and judged (its
// failure stands on its own errors) otherwise.
func TestLateArrivalsExplainWhatTheyRaised(t *testing.T) {
	ms := time.Millisecond
	late := func(by ...Lateness) []Lateness { return by }
	tests := []struct {
		name    string
		service time.Duration
		late    []Lateness
		wait    time.Duration
		r       int64 // refusals in the second
		k       int64 // the late arrivals that explain a refusal
		judged  bool
	}{
		// The trial's: a laptop's other process kept every arrival a few ms late.
		{"a gap late, under a 30ms service", 30 * ms, late(Lateness{4 * ms, 130}, Lateness{8 * ms, 20}), 0, 88, 0, true},
		{"later than a 30ms service", 30 * ms, late(Lateness{4 * ms, 130}, Lateness{40 * ms, 80}), 0, 70, 80, false},
		{"some later than the service, too few", 30 * ms, late(Lateness{4 * ms, 130}, Lateness{40 * ms, 30}), 0, 88, 30, true},
		{"as many as the budget allows past them", 30 * ms, late(Lateness{40 * ms, 30}), 0, 54, 30, false},
		{"one past the budget beyond them", 30 * ms, late(Lateness{40 * ms, 30}), 0, 55, 30, true},
		// A wait for a CPU after the start holds back rate × (wait − service).
		{"a wait for a CPU longer than the service", 30 * ms, nil, 130 * ms, 30, 30, false},
		{"a wait for a CPU within the service", 30 * ms, nil, 25 * ms, 30, 0, true},
		// A service quicker than the gap: an arrival a gap late came with the next.
		{"a 1ms service, a gap late", ms, late(Lateness{4 * ms, 130}), 0, 88, 130, false},
		{"a 1ms service, under a gap late", ms, late(Lateness{2 * ms, 130}), 0, 88, 0, true},
		{"the service not measured: a gap late", 0, late(Lateness{4 * ms, 130}), 0, 88, 130, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				secs := make([]Second, 8)
				secs[3] = Second{Answered: tc.r, Late: tc.late, Wait: tc.wait}
				busy := StepResult{Requests: 2400, ErrorRate: float64(tc.r) / 2400, Throughput: 297, Mean: 31 * ms, Stall: 20 * ms, Service: tc.service,
					FailedThresholds: []string{"http_req_failed: rate < 0.01"}, Diagnosis: "waited", Seconds: secs}
				if got := explaining(StepResult{Rate: 300, Service: tc.service}, secs[3]); got != tc.k {
					t.Errorf("the late arrivals explain %d refusals, want %d", got, tc.k)
				}
				pass := StepResult{Requests: 1200, Throughput: 150, Passed: true}
				fail := StepResult{Requests: 2400, ErrorRate: 0.5, Throughput: 150, FailedThresholds: []string{"http_req_failed: rate < 0.01"}}
				cfg := Config{StartRate: 150, Factor: 2, Hold: 8 * time.Second, MaxErrorRate: 0.01, LatencyLimit: 200 * ms, Precision: 0.5}
				r, err := Search(context.Background(), cfg, &scripted{results: []StepResult{pass, busy, fail}})
				if err != nil {
					t.Fatal(err)
				}
				run := r.Steps[1]
				if run.Judged != tc.judged || run.Retried == tc.judged || (run.Stands != "") != tc.judged {
					t.Fatalf("%d refusals, %d explained: judged %v, retried %v, stands %q; want judged %v", tc.r, tc.k, run.Judged, run.Retried, run.Stands, tc.judged)
				}
				if tc.judged && !strings.Contains(run.Stands, "errors no late arrival of the generator explains") {
					t.Errorf("stands %q", run.Stands)
				}
			})
		})
	}
}

// TestBunchedWordsNameTheServiceTime: a run under every busy limit whose
// refusals came with arrivals later than the target's service time says
// so, and counts those arrivals only.
func TestBunchedWordsNameTheServiceTime(t *testing.T) {
	ms := time.Millisecond
	secs := make([]Second, 5)
	secs[2] = Second{Answered: 18, Late: []Lateness{{6 * ms, 100}, {40 * ms, 20}}}
	tests := []struct {
		service time.Duration
		words   string
	}{
		{30 * ms, "18 errors the target answered came in seconds with 20 arrivals later than its 30.0ms service time, bunched"},
		{ms, "18 errors the target answered came in seconds with 120 late arrivals, bunched"},
	}
	for _, tc := range tests {
		s := &search{cfg: Config{MaxErrorRate: 1e-9, MaxLag: 50 * ms, RequestsPerIteration: 1}}
		r := StepResult{Rate: 200, Requests: 1000, ErrorRate: 0.018, LagP99: 35 * ms, Service: tc.service, Seconds: secs,
			FailedThresholds: []string{"http_req_failed: rate == 0"}}
		if got := s.bunched(r); !strings.Contains(got, tc.words) {
			t.Errorf("service %s: %q, want %q", tc.service, got, tc.words)
		}
	}
}

// TestABusyQueueIsJudgedOnItsLastArrivals covers the busy-host branch of
// "fell behind": a busy step whose target completed too few of the
// iterations its hold offered stands unless the lateness of the hold's
// last arrivals, twice over, carries that many past its end. A lag p99 of
// 150ms over the step says nothing of its last second: a stall at its
// start delayed iterations the hold still completed. Each case is a step
// at 100 iterations/s held 8 s (800 offered, 10ms each), its lag p99 past
// the 50ms limit, whose target completed `completed`.
func TestABusyQueueIsJudgedOnItsLastArrivals(t *testing.T) {
	ms := time.Millisecond
	lags := func(last, beforeLast time.Duration) []Second {
		s := make([]Second, 9) // the hold's 8 seconds and its drain
		s[0].Lag, s[6].Lag, s[7].Lag = 150*ms, beforeLast, last
		return s
	}
	tests := []struct {
		name      string
		completed int64
		seconds   []Second
		judged    bool
		words     string // in its Stands
	}{
		{"5% short, the last arrivals 5ms late", 760, lags(5*ms, 5*ms), true,
			"completed 95 iterations/s of the 100 iterations/s offered, 5.00% short: the target fell behind, more than twice the lateness of the hold's last arrivals (5.00ms) carries past its end"},
		{"5% short, the last arrivals 200ms late", 760, lags(200*ms, 5*ms), false, ""},
		{"5% short, the second before the last 1.3s late", 760, lags(5*ms, 1300*ms), false, ""},
		{"10% short, the last arrivals 200ms late", 720, lags(200*ms, 5*ms), true, "more than twice the lateness of the hold's last arrivals (200ms)"},
		// Without seconds, the step's lag p99 and stall, twice, as before.
		{"5% short, no seconds", 760, nil, false, ""},
		{"10% short, no seconds", 720, nil, true, "more than twice the lag p99 and the longest stall carry past the hold"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				busy := StepResult{Requests: 800, Throughput: float64(tc.completed) / 8, Mean: 20 * ms, P95: 40 * ms, Passed: true, LagP99: 150 * ms,
					Offered: 800, Completed: tc.completed, IterationMean: 10 * ms, Seconds: tc.seconds}
				pass := StepResult{Requests: 400, Throughput: 50, Passed: true}
				fail := StepResult{Requests: 1600, Throughput: 100, P95: time.Second, FailedThresholds: []string{"http_req_duration: p(95) < 200ms"}}
				cfg := Config{StartRate: 50, Factor: 2, Hold: 8 * time.Second, LatencyLimit: 200 * ms, Precision: 0.5}
				r, err := Search(context.Background(), cfg, &scripted{results: []StepResult{pass, busy, fail}})
				if err != nil {
					t.Fatal(err)
				}
				run := r.Steps[1]
				if run.Busy == "" || run.Passed {
					t.Fatalf("busy %q, passed %v: want a busy step that fell behind", run.Busy, run.Passed)
				}
				if run.Judged != tc.judged || run.Retried == tc.judged || !strings.Contains(run.Stands, tc.words) || (run.Stands != "") != tc.judged {
					t.Fatalf("judged %v, retried %v, stands %q; want judged %v, %q", run.Judged, run.Retried, run.Stands, tc.judged, tc.words)
				}
			})
		})
	}
}

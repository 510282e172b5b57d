package capacity

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestRetriesAStepOnABusyHost: the first run at each rate finds the host
// busy and fails; each is run again after the pause, and the search ends
// where it ends on a quiet host. The pause runs on synctest's fake clock.
func TestRetriesAStepOnABusyHost(t *testing.T) {
	server := queueServer{k: 8, service: 10 * time.Millisecond, slo: 50 * time.Millisecond}
	cfg := Config{StartRate: 100, Hold: 30 * time.Second}
	quiet, err := Search(context.Background(), cfg, server)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ kind, why string }{
		{"lag", "scheduling lag p99 300ms > 100ms"},
		{"cpu", "generator CPU 98% > 85% of its cores"},
		{"steal", "CPU steal 30% > 10%, host CPU 99% busy"},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var told []Record
				c := cfg
				c.Progress = func(r Record) { told = append(told, r) }
				start := time.Now()
				r, err := Search(context.Background(), c, &busyHost{Runner: server, kind: tc.kind, first: true})
				if err != nil {
					t.Fatal(err)
				}
				if r.Stop != quiet.Stop || r.Highest != quiet.Highest || r.LowestFailing != quiet.LowestFailing {
					t.Fatalf("stop %s, %v–%v; on a quiet host %s, %v–%v", r.Stop, r.Highest, r.LowestFailing, quiet.Stop, quiet.Highest, quiet.LowestFailing)
				}
				rates := len(quiet.Steps)
				if r.Retries != rates || len(r.Steps) != 2*rates || len(told) != len(r.Steps) {
					t.Fatalf("%d retries, %d runs, %d told; want %d, %d, %d", r.Retries, len(r.Steps), len(told), rates, 2*rates, 2*rates)
				}
				for i := 0; i < len(r.Steps); i += 2 {
					first, again := r.Steps[i], r.Steps[i+1]
					if !first.Retried || first.Attempt != 1 || !strings.Contains(first.Busy, tc.why) ||
						again.Retried || again.Attempt != 2 || again.Busy != "" || again.Rate != first.Rate {
						t.Fatalf("runs %d and %d: %+v then %+v", i+1, i+2, first, again)
					}
				}
				if got, want := time.Since(start), time.Duration(rates)*r.Config.RetryPause; got != want {
					t.Errorf("the search waited %v on the fake clock, want %d pauses of %v", got, rates, r.Config.RetryPause)
				}
				golden(t, "retried-"+tc.kind, r) // report's tests render it
			})
		})
	}
}

// TestStopsWhenTheHostStaysBusy: every run from 300/s finds the host busy;
// after the retries the search stops saying the host could not generate
// the load, not that the system sustains "at least" the last pass.
func TestStopsWhenTheHostStaysBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		server := queueServer{k: 8, service: 10 * time.Millisecond, slo: 50 * time.Millisecond}
		r, err := Search(context.Background(), Config{StartRate: 100, Hold: 30 * time.Second}, &busyHost{Runner: server, kind: "lag", from: 300})
		if err != nil {
			t.Fatal(err)
		}
		if r.Stop != HostBusy || r.Highest != 225 || r.Retries != 2 || len(r.Steps) != 6 {
			t.Fatalf("stop %q (%s), highest %v, %d retries, %d runs; want host too busy, 225, 2, 6", r.Stop, r.StopDetail, r.Highest, r.Retries, len(r.Steps))
		}
		if !strings.Contains(r.StopDetail, "could not generate 338 iterations/s: busy on each of 3 attempts (last: scheduling lag p99 300ms > 100ms)") {
			t.Errorf("stop detail %q", r.StopDetail)
		}
		golden(t, "host-busy", r) // report's tests render it
	})
}

// TestJudgingRunsOnABusyHost covers the rules one run at a time.
func TestJudgingRunsOnABusyHost(t *testing.T) {
	pass := StepResult{Throughput: 100, P95: 10 * time.Millisecond, Passed: true, LagP99: time.Millisecond}
	fail := StepResult{Throughput: 100, P95: 90 * time.Millisecond, FailedThresholds: []string{"p(95)"}, LagP99: time.Millisecond}
	slow := StepResult{Throughput: 100, P95: 2 * time.Second, Mean: time.Second, FailedThresholds: []string{"p(95)"}}
	fail300 := StepResult{Throughput: 100, P95: 500 * time.Millisecond, Mean: 300 * time.Millisecond, FailedThresholds: []string{"p(95)"}}
	lagged := func(r StepResult, lag time.Duration) StepResult { r.LagP99 = lag; return r }
	distrust := func(r StepResult, stall time.Duration) StepResult { r.Diagnosis, r.Stall = "waited", stall; return r }
	served := func(r StepResult, x float64) StepResult { r.Throughput = x; return r }
	refused := func(r StepResult) StepResult {
		r.Requests, r.ErrorRate, r.FailedThresholds = 1000, 0.02, append(r.FailedThresholds, "http_req_failed: rate == 0")
		r.Seconds = []Second{{Answered: 4}, {Answered: 4}, {Answered: 4}, {Answered: 4}, {Answered: 4}}
		return r
	}
	tests := []struct {
		name     string
		cfg      Config
		results  []StepResult
		stop     StopReason
		retries  int
		highest  float64
		firstWhy string // in the first run's Busy
		detail   string
		verdict  string // in the verdict of the last run
	}{
		// Lag only adds to latency timed from the intended start: a pass stands.
		{"a pass on a busy host stands", Config{StartRate: 100, Factor: 2, Precision: 0.5},
			[]StepResult{lagged(pass, 300*time.Millisecond), fail}, Converged, 0, 100, "lag p99 300ms > 100ms", "", "FAIL p(95)"},
		// Even less twice its 200ms of lag, a mean of 1s is past the 100ms limit: the system failed.
		{"a failure the lag cannot explain stands", Config{StartRate: 100, Factor: 2, LatencyLimit: 100 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, lagged(slow, 200*time.Millisecond)}, Converged, 0, 100, "", "",
			"FAIL p(95) (the target's: its mean latency 1.00s less twice the lag p99 (200ms) is 600ms, past the latency limit of 100ms, and it completed 100 req/s of the 200 req/s offered: it queued; the host was busy too: scheduling lag p99 200ms > 25.0ms)"},
		// It completed what it was offered: no word of a queue.
		{"a failure the lag cannot explain at the rate offered stands", Config{StartRate: 100, Factor: 2, LatencyLimit: 100 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, lagged(served(slow, 200), 200*time.Millisecond)}, Converged, 0, 100, "", "",
			"FAIL p(95) (the target's: its mean latency 1.00s less twice the lag p99 (200ms) is 600ms, past the latency limit of 100ms; the host was busy too: scheduling lag p99 200ms > 25.0ms)"},
		// A mean of 300ms less twice 120ms of lag is within the limit: the lag could explain it.
		{"a failure the lag could explain is run again", Config{StartRate: 100, Factor: 2, LatencyLimit: 100 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, lagged(fail300, 120*time.Millisecond), fail}, Converged, 1, 100, "", "", "FAIL p(95)"},
		// A generator waiting for a CPU delays reading a response by up to its
		// scheduling latency: 20ms of it cannot make a mean of 1s out of 100ms.
		{"a distrusted failure the stall cannot explain stands", Config{StartRate: 100, Factor: 2, LatencyLimit: 100 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, distrust(slow, 20*time.Millisecond)}, Converged, 0, 100, "", "",
			"FAIL p(95) (the target's: its mean latency 1.00s less twice the generator's longest stall (20.0ms) is 960ms, past the latency limit of 100ms, and it completed 100 req/s of the 200 req/s offered: it queued; the host was busy too: the step's diagnosis: waited)"},
		// 150ms of stall could explain a mean of 300ms: run again.
		{"a distrusted failure the stall could explain is run again", Config{StartRate: 100, Factor: 2, LatencyLimit: 100 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, distrust(fail300, 150*time.Millisecond), fail}, Converged, 1, 100, "", "", "FAIL p(95)"},
		// Without its scheduling latency nothing bounds what the wait added.
		{"a distrusted failure without a stall figure is run again", Config{StartRate: 100, Factor: 2, LatencyLimit: 100 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, distrust(slow, 0), fail}, Converged, 1, 100, "", "", "FAIL p(95)"},
		// 4 refusals a second and no late arrival: the target's own.
		{"a distrusted failure on the target's own errors stands", Config{StartRate: 100, Factor: 2, LatencyLimit: 100 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, refused(distrust(fail300, 150*time.Millisecond))}, Converged, 0, 100, "", "",
			"FAIL p(95); http_req_failed: rate == 0 (the target's: it answered 20 of the 1,000 requests with errors no late arrival of the generator explains (of 20 errors it answered; 2.00%, over the error budget of 1%); the host was busy too: the step's diagnosis: waited)"},
		{"retries off", Config{StartRate: 100, Factor: 2, MaxRetries: -1},
			[]StepResult{pass, lagged(fail, 300*time.Millisecond)}, HostBusy, 0, 100, "", "on its one attempt (retries are off)",
			"not judged, no retries left: host busy (scheduling lag p99 300ms > 100ms)"},
		// The SLO allows 80ms, so 30ms of lag could decide it: the limit is a quarter.
		{"the lag limit follows the latency limit", Config{StartRate: 100, Factor: 2, LatencyLimit: 80 * time.Millisecond, Precision: 0.5},
			[]StepResult{pass, lagged(fail, 30*time.Millisecond), fail}, Converged, 1, 100, "", "", "FAIL p(95)"},
		{"without a latency limit 30ms of lag is no reason", Config{StartRate: 100, Factor: 2, Precision: 0.5},
			[]StepResult{pass, lagged(fail, 30*time.Millisecond)}, Converged, 0, 100, "", "", "FAIL p(95)"},
	}
	verdicts := map[string]verdictCase{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tc.cfg.Hold = 10 * time.Second
				r, err := Search(context.Background(), tc.cfg, &scripted{results: tc.results})
				if err != nil {
					t.Fatal(err)
				}
				if r.Stop != tc.stop || r.Retries != tc.retries || r.Highest != tc.highest {
					t.Fatalf("stop %q (%s), %d retries, highest %v; want %q, %d, %v", r.Stop, r.StopDetail, r.Retries, r.Highest, tc.stop, tc.retries, tc.highest)
				}
				if !strings.Contains(r.Steps[0].Busy, tc.firstWhy) || (tc.firstWhy != "" && r.Steps[0].Clean()) {
					t.Errorf("first run: busy %q, clean %v; want %q", r.Steps[0].Busy, r.Steps[0].Clean(), tc.firstWhy)
				}
				if !strings.Contains(r.StopDetail, tc.detail) {
					t.Errorf("stop detail %q, want %q", r.StopDetail, tc.detail)
				}
				verdicts[tc.name] = verdictCase{Last: r.Steps[len(r.Steps)-1], Want: tc.verdict}
			})
		})
	}
	golden(t, "verdicts", verdicts) // report's tests read each last run's verdict
}

// TestInterruptedWhileWaitingToRetry: the pause before a retry ends with
// the context.
func TestInterruptedWhileWaitingToRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		busy := StepResult{Throughput: 1, LagP99: time.Second}
		start := time.Now()
		r, err := Search(ctx, Config{StartRate: 10, Hold: 10 * time.Second, RetryPause: time.Minute}, &scripted{results: []StepResult{busy}})
		if !errors.Is(err, context.DeadlineExceeded) || r.Stop != Interrupted || len(r.Steps) != 1 || time.Since(start) != time.Second {
			t.Fatalf("err %v, stop %q, %d runs after %v; want the deadline, interrupted, 1 run after 1s", err, r.Stop, len(r.Steps), time.Since(start))
		}
	})
}

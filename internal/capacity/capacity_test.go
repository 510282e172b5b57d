package capacity

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// TestFindsTheCapacityOfAQueue searches servers of known capacity C = k/s
// and expects the highest sustainable rate at a p95 SLO within 15 % of C.
func TestFindsTheCapacityOfAQueue(t *testing.T) {
	tests := []struct {
		name   string
		server queueServer
		cfg    Config
	}{
		{"8 workers × 10ms, factor 1.5", queueServer{k: 8, service: 10 * time.Millisecond, slo: 50 * time.Millisecond},
			Config{StartRate: 100, Hold: 30 * time.Second}},
		{"1 worker × 5ms, even arrivals, increments", queueServer{k: 1, service: 5 * time.Millisecond, slo: 50 * time.Millisecond, even: true},
			Config{StartRate: 20, Increment: 40, Hold: 60 * time.Second}},
		{"32 workers × 100ms, start above capacity", queueServer{k: 32, service: 100 * time.Millisecond, slo: 400 * time.Millisecond},
			Config{StartRate: 500, Hold: 30 * time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Search(context.Background(), tc.cfg, tc.server)
			if err != nil {
				t.Fatal(err)
			}
			c := tc.server.capacity()
			if r.Stop != Converged || math.Abs(r.Highest-c) > 0.15*c {
				t.Fatalf("highest %v for a capacity of %v (stop: %s: %s)\nsteps: %+v", r.Highest, c, r.Stop, r.StopDetail, r.Steps)
			}
			if r.LowestFailing <= r.Highest || len(r.FirstFailure) != 1 || !strings.Contains(r.FirstFailure[0], "p(95)") {
				t.Errorf("lowest failing %v, first failure %q", r.LowestFailing, r.FirstFailure)
			}
			if (r.LowestFailing-r.Highest)/r.LowestFailing > tc.cfg.Precision+0.05 {
				t.Errorf("bisection left %v–%v", r.Highest, r.LowestFailing)
			}
		})
	}
}

func TestKneeLiesBelowTheCapacity(t *testing.T) {
	server := queueServer{k: 8, service: 10 * time.Millisecond, slo: 50 * time.Millisecond}
	r, err := Search(context.Background(), Config{StartRate: 50, Increment: 100, Hold: 30 * time.Second}, server)
	if err != nil {
		t.Fatal(err)
	}
	k := r.Knee
	if k == nil {
		t.Fatal("no knee found")
	}
	if k.Rate > r.Highest || k.Rate < 0.5*server.capacity() || k.NextP95 <= time.Duration(r.Config.KneeFactor*float64(k.Base)) {
		t.Errorf("knee %+v for a capacity of %v and a highest rate of %v", *k, server.capacity(), r.Highest)
	}
}

// TestStopsWhenTheGeneratorSaturates: iterations dropped by an otherwise
// idle generator mean its VU ceiling is too low, which no retry changes, so
// the search stops at once and says why; the SLO held up to the last step.
func TestStopsWhenTheGeneratorSaturates(t *testing.T) {
	server := queueServer{k: 8, service: 10 * time.Millisecond, slo: 50 * time.Millisecond}
	r, err := Search(context.Background(), Config{StartRate: 100, Hold: 30 * time.Second}, cappedGenerator{Runner: server, maxVUs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stop != GeneratorSaturated || !strings.Contains(r.StopDetail, "iterations were dropped") || r.Highest != 150 || r.Retries != 0 {
		t.Fatalf("stop %q (%s), highest %v, %d retries; want generator saturated (dropped), 150, no retries", r.Stop, r.StopDetail, r.Highest, r.Retries)
	}
	golden(t, "generator-saturated", r) // report's tests render it
}

func TestSearchStops(t *testing.T) {
	fast := queueServer{k: 1000, service: time.Millisecond, slo: 50 * time.Millisecond}
	slow := queueServer{k: 1, service: time.Second, slo: 50 * time.Millisecond}
	tests := []struct {
		name    string
		cfg     Config
		runner  Runner
		stop    StopReason
		steps   int
		wantErr string
	}{
		{"max rate reached", Config{StartRate: 100, Factor: 2, MaxRate: 500, Hold: 10 * time.Second}, fast, MaxRateReached, 4, ""}, // 100 200 400 500
		{"budget spent", Config{StartRate: 100, Factor: 2, Hold: 10 * time.Second, Budget: 35 * time.Second}, fast, BudgetSpent, 3, ""},
		{"step limit", Config{StartRate: 100, Factor: 2, Hold: 10 * time.Second, MaxSteps: 5}, fast, StepLimit, 5, ""},
		{"nothing passes", Config{StartRate: 100, Hold: 10 * time.Second}, slow, NothingPassed, 5, ""}, // 100 50 25 12.5 6.25
		{"runner error", Config{StartRate: 100, Hold: 10 * time.Second}, failingRunner{Runner: fast, above: 200}, StepError, 2, "target unreachable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Search(context.Background(), tc.cfg, tc.runner)
			if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if r.Stop != tc.stop || len(r.Steps) != tc.steps {
				t.Fatalf("stop %q after %d steps (%s), want %q after %d", r.Stop, len(r.Steps), r.StopDetail, tc.stop, tc.steps)
			}
		})
	}
}

func TestSearchInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Search(ctx, Config{StartRate: 100, Hold: time.Second}, queueServer{k: 1, service: time.Millisecond, slo: time.Second})
	if !errors.Is(err, context.Canceled) || r.Stop != Interrupted || len(r.Steps) != 0 {
		t.Fatalf("err %v, stop %q, %d steps; want canceled, interrupted, none", err, r.Stop, len(r.Steps))
	}
}

func TestRatesAskedFor(t *testing.T) {
	c := &countingRunner{Runner: queueServer{k: 4, service: 10 * time.Millisecond, slo: 40 * time.Millisecond}}
	r, err := Search(context.Background(), Config{StartRate: 100, Factor: 2, Hold: 20 * time.Second, Precision: 0.1}, c)
	if err != nil {
		t.Fatal(err)
	}
	// Raise: 100, 200, 400 (past the capacity of 400 with Poisson arrivals, so it fails), then bisect.
	if len(c.rates) < 4 || c.rates[0] != 100 || c.rates[1] != 200 || c.rates[2] != 400 || c.rates[3] != 300 {
		t.Fatalf("rates %v, want 100, 200, 400, then 300", c.rates)
	}
	for i, s := range r.Steps {
		want := Raise
		if i >= 3 {
			want = Bisect
		}
		if s.Phase != want {
			t.Errorf("step %d at %v: phase %s, want %s", i+1, s.Rate, s.Phase, want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no start", Config{Hold: time.Second}, "start rate 0"},
		{"no hold", Config{StartRate: 1}, "hold per step 0s"},
		{"both steps", Config{StartRate: 1, Hold: time.Second, Factor: 2, Increment: 1}, "not both"},
		{"factor 1", Config{StartRate: 1, Hold: time.Second, Factor: 1}, "factor 1 must be above 1"},
		{"max below start", Config{StartRate: 10, Hold: time.Second, MaxRate: 5}, "below the start rate"},
		{"budget below hold", Config{StartRate: 10, Hold: time.Minute, Budget: time.Second}, "shorter than one step"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Search(context.Background(), tc.cfg, queueServer{k: 1, service: time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestKneeIgnoresASlowStepBelowIt: one slow step below the climb (a noisy
// host) does not pull the knee down; latency must stay past the factor at
// every higher rate.
func TestKneeIgnoresASlowStepBelowIt(t *testing.T) {
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	step := func(rate, p95 float64) Record {
		return Record{StepResult: StepResult{Rate: rate, Throughput: rate, P95: ms(p95), Passed: p95 < 50}, Attempt: 1, Judged: true}
	}
	tests := []struct {
		name  string
		steps []Record
		knee  float64 // 0: none
	}{
		{"a noisy step below the climb", []Record{step(60, 31), step(135, 44), step(152, 27), step(160, 117), step(169, 275)}, 152},
		{"a plain climb", []Record{step(50, 20), step(100, 21), step(150, 25), step(200, 90)}, 150},
		{"no climb", []Record{step(50, 20), step(100, 21), step(150, 25)}, 0},
		{"a slow step is last", []Record{step(50, 20), step(100, 40), step(150, 25)}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := findKnee(tc.steps, 1.5, 0.01, 0)
			if (k == nil) != (tc.knee == 0) || (k != nil && k.Rate != tc.knee) {
				t.Fatalf("knee %+v, want at %v", k, tc.knee)
			}
		})
	}
}

// TestKneeLowLoadIsBelowIt: the knee's low-load p95 is the lowest of the
// steps below its rate, not the knee's own (nor a higher step's) when the
// low steps were noisy; none when the knee is the lowest rate.
func TestKneeLowLoadIsBelowIt(t *testing.T) {
	ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	step := func(rate, p95 float64) Record {
		return Record{StepResult: StepResult{Rate: rate, Throughput: rate, P95: ms(p95), Passed: p95 < 50}, Attempt: 1, Judged: true}
	}
	retry := func(r Record) Record { r.Attempt = 2; return r }
	tests := []struct {
		name       string
		steps      []Record
		knee       float64
		base, next time.Duration
	}{
		{"noisy low steps, the knee quicker", []Record{step(60, 31), step(135, 44), step(152, 27), step(160, 117), step(169, 275)}, 152, ms(31), ms(117)},
		{"a plain climb", []Record{step(50, 20), step(100, 21), step(150, 25), step(200, 90)}, 150, ms(20), ms(90)},
		{"the lowest p95 at the knee's other try", []Record{step(50, 30), step(100, 28), retry(step(100, 22)), step(200, 90)}, 100, ms(30), ms(90)},
		{"the knee is the lowest rate", []Record{step(50, 20), step(100, 80), step(200, 95)}, 50, 0, ms(80)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := findKnee(tc.steps, 1.5, 0.01, 0)
			if k == nil || k.Rate != tc.knee || k.Base != tc.base || k.NextP95 != tc.next {
				t.Fatalf("knee %+v, want at %v with low-load p95 %v, next %v", k, tc.knee, tc.base, tc.next)
			}
		})
	}
}

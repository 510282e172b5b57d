package capacity

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestThinStepsAreSaid: a search whose boundary steps held fewer requests
// than a p95 needs (200: 10 beyond it) says so, with a hold that would
// hold enough; a search whose steps hold thousands says nothing.
func TestThinStepsAreSaid(t *testing.T) {
	for _, tc := range []struct {
		name   string
		server queueServer
		start  float64
		hold   time.Duration
		want   []string
	}{
		{"one worker of 1 s at about 1 iteration/s, 15 s steps", queueServer{k: 1, service: time.Second, slo: 1500 * time.Millisecond, even: true},
			0.3, 15 * time.Second, []string{"too thin for a p(95)", "requests", "while it needs 200 a step (10 beyond it)", "a hold of"}},
		{"8 workers of 10 ms, 10 s steps", queueServer{k: 8, service: 10 * time.Millisecond, slo: 50 * time.Millisecond, even: true},
			100, 10 * time.Second, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Search(context.Background(), Config{StartRate: tc.start, Hold: tc.hold, Percentile: 95, MaxRetries: -1}, tc.server)
			if err != nil {
				t.Fatal(err)
			}
			if res.Highest == 0 || res.LowestFailing == 0 {
				t.Fatalf("no boundary: %+v", res.Stop)
			}
			if tc.want == nil && res.Thin != "" {
				t.Errorf("thin note on thick steps: %s", res.Thin)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.Thin, w) {
					t.Errorf("thin note %q lacks %q", res.Thin, w)
				}
			}
		})
	}
}

// TestNoThinNoteWithoutABoundary: a search with no pass (a dead target,
// nothing passed) or no failure (the SLO held up to --max) has no boundary
// for a longer hold to sharpen, however few requests its steps held.
func TestNoThinNoteWithoutABoundary(t *testing.T) {
	step := func(rate float64, passed bool) Record {
		return Record{StepResult: StepResult{Rate: rate, Requests: 40, Passed: passed}, Judged: true}
	}
	for _, tc := range []struct {
		name             string
		highest, failing float64
		steps            []Record
		want             bool
	}{
		{"dead target: every request failed at the first step", 0, 20, []Record{step(20, false)}, false},
		{"nothing passed, down to a tenth", 0, 2, []Record{step(20, false), step(2, false)}, false},
		{"the SLO held up to --max", 30, 0, []Record{step(20, true), step(30, true)}, false},
		{"a pass and a failure on thin steps", 20, 30, []Record{step(20, true), step(30, false)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Result{Config: Config{Percentile: 95, RequestsPerIteration: 1}, Steps: tc.steps, Highest: tc.highest, LowestFailing: tc.failing}
			if got := thinNote(&res); (got != "") != tc.want {
				t.Errorf("thin note %q; want one: %v", got, tc.want)
			}
		})
	}
}

package engine

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// iterationClock keeps when each iteration ended, for the closed model's rate.
type iterationClock struct {
	nullSink
	mu   sync.Mutex
	ends []time.Duration
}

func (c *iterationClock) Sink(int) sample.Sink { return c }
func (c *iterationClock) Iteration(_ int32, end, _ time.Duration) {
	c.mu.Lock()
	c.ends = append(c.ends, end)
	c.mu.Unlock()
}

// TestClosedModelStartsVUsSpreadOverTheirThinkTime: N VUs that join at once
// with a think time Z are started over one Z, as a user population arrives,
// so the rate is N / Z from the first interval on and stays so in every
// window, instead of N iterations at once every Z (lock-step). A ramp
// starts its VUs at the ramp's times, not spread again. On a fake clock:
// R is 0 and every timer is exact.
func TestClosedModelStartsVUsSpreadOverTheirThinkTime(t *testing.T) {
	const (
		vus    = 500
		z      = 200 * time.Millisecond
		length = 2 * time.Second
		window = 50 * time.Millisecond
	)
	cases := []struct {
		name  string
		load  plan.Load
		check func(t *testing.T, perWindow []int)
	}{
		{"vus: 500 at once", plan.Load{Model: plan.VUs, StartVUs: vus, Stages: []plan.Stage{{Duration: length, Target: vus}}},
			func(t *testing.T, perWindow []int) {
				// N / Z = 2,500/s: 125 iterations in every 50 ms once the first have ended, within 2 %
				for w := int(z / window); w < len(perWindow); w++ {
					if n := perWindow[w]; n < 122 || n > 128 {
						t.Fatalf("%d iterations ended in window %d (%v), want 125 (N/Z = 2,500/s) ±2%%; all: %v", n, w, time.Duration(w)*window, perWindow)
					}
				}
			}},
		{"a ramp from 0 is not spread again", plan.Load{Model: plan.VUs, Stages: []plan.Stage{{Duration: z, Target: vus}, {Duration: length - z, Target: vus}}},
			func(t *testing.T, perWindow []int) {
				// VU i starts at i × 0.4 ms by the ramp and ends its first iteration 200 ms later
				for w := int(z / window); w < len(perWindow); w++ {
					if n := perWindow[w]; n < 122 || n > 128 {
						t.Fatalf("%d iterations ended in window %d, want 125 ±2%%; all: %v", n, w, perWindow)
					}
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := scenario(c.load, think(z))
				s.GracefulStop = 0
				clock := &iterationClock{}
				e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, clock, Options{})
				if err := e.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				perWindow := make([]int, length/window)
				for _, end := range clock.ends {
					if w := int(end / window); w < len(perWindow) {
						perWindow[w]++
					}
				}
				c.check(t, perWindow)
			})
		})
	}
}

// TestClosedModelRateIsLittlesLaw runs 500 VUs with 200 ms of think time
// against a fast server for real: the rate of iterations after the first
// interval is N / (R + Z), R the mean request duration measured, within
// 5 % (a busy host wakes each think a little late; the fake-clock test
// above holds 2 %). VUs in lock-step lose throughput to the bursts they
// queue in.
func TestClosedModelRateIsLittlesLaw(t *testing.T) {
	checkLeaks(t)
	const (
		vus    = 500
		z      = 200 * time.Millisecond
		length = 3 * time.Second
	)
	url := h1test.FixedServer(t)
	s := scenario(plan.Load{Model: plan.VUs, StartVUs: vus, Stages: []plan.Stage{{Duration: length, Target: vus}}}, get(url), think(z))
	rec := newTestRecorder()
	runPlanInto(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, Options{}, rec)
	var sum time.Duration
	n := 0
	for _, q := range rec.reqs {
		if q.Kind != sample.OK {
			t.Fatalf("a failed request: %+v", q)
		}
		// requests that started after the first interval and ended in the run
		if start := q.End - q.Duration; start >= z && q.End < length {
			sum += q.Duration
			n++
		}
	}
	r := sum / time.Duration(n)
	want := float64(vus) / (r + z).Seconds()
	got := float64(n) / (length - z - r).Seconds() // requests that could both start after z and end before the end
	t.Logf("%d VUs, R = %v, Z = %v: %.0f/s, N/(R+Z) = %.0f/s", vus, r, z, got, want)
	if got < 0.95*want || got > 1.05*want {
		t.Fatalf("%.0f requests/s, want N/(R+Z) = %.0f/s ±5%%", got, want)
	}
}

package diagnose

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// offeredRun builds a run of secs seconds: scenario i completes rates[i]
// iterations a second of perIter[i] requests from second starts[i], its
// busy-VU peak going through peaks[i] in turn.
func offeredRun(secs int, rates []int64, perIter []int, starts []int, peaks [][]int64) *metrics.Run {
	var layout sample.Layout
	for i := range rates {
		layout.Scenarios = append(layout.Scenarios, sample.ScenarioInfo{Name: string(rune('a' + i)), Model: "arrival-rate"})
		for j := 0; j < perIter[i]; j++ {
			layout.Endpoints = append(layout.Endpoints, sample.EndpointInfo{Scenario: int32(i), Name: "GET /" + string(rune('a'+j))})
		}
	}
	run := metrics.NewRun(layout)
	for s := 0; s < secs; s++ {
		sec := metrics.Second{Sec: s, PerEndpoint: make([]metrics.EndpointFigures, len(layout.Endpoints)),
			PerScenario: make([]metrics.ScenarioFigures, len(rates)), Mean: time.Millisecond, P95: time.Millisecond}
		rate := func(i int) int64 {
			if s < starts[i] {
				return 0
			}
			return rates[i]
		}
		for i, e := range layout.Endpoints {
			sec.PerEndpoint[i].Requests = rate(int(e.Scenario))
			sec.Requests += rate(int(e.Scenario))
		}
		for i := range rates {
			r, vus := rate(i), peaks[i][s%len(peaks[i])]
			if r == 0 {
				vus = 0
			}
			sec.PerScenario[i] = metrics.ScenarioFigures{Iterations: r, VUs: vus}
			sec.Iterations += r
			sec.VUs += vus
		}
		run.Series = append(run.Series, sec)
	}
	run.SetElapsed(time.Duration(secs) * time.Second)
	return run
}

// TestOfferedIsEachScenarioAtItsOwnRequestsPerIteration checks the offered
// figure against what the schedule offered: each scenario's rate × its own
// requests per iteration, summed, and a busy-VU peak's jitter adds nothing.
func TestOfferedIsEachScenarioAtItsOwnRequestsPerIteration(t *testing.T) {
	cases := []struct {
		name    string
		rates   []int64
		perIter []int
		starts  []int
		peaks   [][]int64
		before  float64 // offered before the last scenario starts (at second 4 when it starts later)
		want    float64
	}{
		{"one scenario at 40/s, its peak jittering", []int64{40}, []int{1}, []int{0}, [][]int64{{1, 2, 1, 1, 2}}, 40, 40},
		{"50/s of one request and 20/s of two", []int64{50, 20}, []int{1, 2}, []int{0, 0}, [][]int64{{1, 2}, {2, 1, 3}}, 90, 50 + 20*2},
		{"50/s, and 20/s of two from 0:04", []int64{50, 20}, []int{1, 2}, []int{0, 4}, [][]int64{{1}, {2}}, 50, 50 + 20*2},
		{"steady peaks", []int64{30, 10}, []int{2, 3}, []int{0, 0}, [][]int64{{4}, {2}}, 90, 30*2 + 10*3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newContext(Input{Run: offeredRun(12, tc.rates, tc.perIter, tc.starts, tc.peaks)})
			pts := c.values(c.client(SrcOffered))
			if len(pts) != 12 {
				t.Fatalf("%d offered values, want 12", len(pts))
			}
			// The first second carries the VUs busy at its end (arrivals
			// not completed); the last two have fewer seconds after them to
			// take the least peak of; between, the rate.
			mid := pts[1 : len(pts)-busyWindow+1]
			for _, p := range mid {
				want := tc.want
				if p.Sec < 4 {
					want = tc.before
				}
				if p.Sec == 4 && tc.before != tc.want {
					continue // the fixture's first busy VUs there are arrivals on top of its completions
				}
				if math.Abs(p.Value-want) > 1e-9 {
					t.Errorf("offered at %d = %v, want %v (all: %v)", p.Sec, p.Value, want, pts)
				}
			}
			var peak float64
			for _, p := range mid {
				if p.Sec != 4 || tc.before == tc.want {
					peak = max(peak, p.Value)
				}
			}
			if peak != tc.want {
				t.Errorf("most offered = %v, want %v", peak, tc.want)
			}
		})
	}
}

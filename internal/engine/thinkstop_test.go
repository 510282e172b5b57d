package engine

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestTrailingThinkEndsWithTheDuration: when a closed scenario's duration
// ends, its VUs parked in the flow's last think time end at once (their
// iterations complete, nothing interrupted), so the run lasts its duration
// and a rate over the run's length is the rate the target got; a think
// with requests after it keeps the graceful stop (k6), its requests sent.
// Before, the run waited out the think (up to the graceful stop): 1 s of
// think read a rate a third low, 1 min of think lasted the 10 s stop.
func TestTrailingThinkEndsWithTheDuration(t *testing.T) {
	tests := []struct {
		name  string
		d     time.Duration
		flow  func(url string) []plan.Step
		perIt int  // requests per iteration
		ramp  bool // VUs start at once (a ramp), not spread over the think
		// over bounds how far past d the run may end; zero: the run ends
		// less than half its 1 s think after its last request
		over  time.Duration
		least time.Duration // the run lasts at least this: its graceful stop
	}{
		{"think longer than the run", 300 * time.Millisecond,
			func(u string) []plan.Step { return []plan.Step{get(u), think(time.Minute)} }, 1, true, 3 * time.Second, 0},
		{"think shorter than the run", 2 * time.Second,
			func(u string) []plan.Step { return []plan.Step{get(u), think(time.Second)} }, 1, false, 0, 0},
		// at the end every VU is in the first think: it sends its second
		// request, then ends in the last think
		{"a think before a request", 150 * time.Millisecond,
			func(u string) []plan.Step {
				return []plan.Step{get(u), think(300 * time.Millisecond), get(u), think(time.Minute)}
			},
			2, true, 3 * time.Second, 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := h1test.FixedServer(t)
			const vus = 20
			load := plan.Load{Model: plan.VUs, StartVUs: vus, Stages: []plan.Stage{{Duration: tt.d, Target: vus}}}
			if tt.ramp {
				load.StartVUs, load.Stages = 0, []plan.Stage{{Duration: 10 * time.Millisecond, Target: vus}, {Duration: tt.d, Target: vus}}
			}
			s := scenario(load, tt.flow(url)...)
			s.GracefulStop = 10 * time.Second
			rec, took := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, Options{})
			kindsIn(t, rec, sample.OK) // nothing interrupted
			reqs := rec.count()
			if reqs == 0 || reqs != tt.perIt*rec.iterations {
				t.Fatalf("%d requests, %d iterations of %d requests: every iteration ends complete", reqs, rec.iterations, tt.perIt)
			}
			if tt.ramp && reqs != tt.perIt*vus {
				t.Fatalf("%d requests; want %d: each VU's iteration, once", reqs, tt.perIt*vus)
			}
			if took < tt.least {
				t.Fatalf("the run lasted %v: its VUs' think before a request is waited for (graceful stop)", took)
			}
			if tt.over > 0 {
				if took > tt.d+tt.over {
					t.Fatalf("the run of %v lasted %v: it waited for its VUs' last think", tt.d, took)
				}
				return
			}
			// Waiting out the last think ends the run a think (1 s) after its
			// last request; ending with the duration, a moment after. Judged
			// on the run's own gap: past the duration a busy host adds (at
			// load 20, -race: 2.2-2.6 s for a 2 s run) it does not add.
			var last time.Duration
			for _, q := range rec.reqs {
				last = max(last, q.End)
			}
			if gap, think := took-last, time.Second; gap > think/2 {
				t.Fatalf("%d requests in %v, the last ended at %v: the run waited %v after it, its VUs' last think (%v)", reqs, took, last, gap, think)
			}
		})
	}
}

package capacityrun

import (
	"testing"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestPoolBelowMaxReadsTheCeilingAndTheDrops: trial A's step dropped 67
// iterations from a pool held at 48 of max_vus 1,000: not max_vus's drops,
// and the engine's drops say what held the pool. They are read as data:
// the notice's words were cut at " dropped; ", which a scenario named
// "a dropped; b" cut in the wrong place, and any rewording of the notice
// would have silently emptied the advice.
func TestPoolBelowMaxReadsTheCeilingAndTheDrops(t *testing.T) {
	held := "the VU pool was held at 48 for a moment: it at most doubles every 1s"
	tests := []struct {
		name      string
		maxVUs    int
		allocated int64
		dropped   int64
		drops     sample.Drops
		below     bool
		why       string
	}{
		{"held at 48 of 1,000", 1000, 48, 67, sample.Drops{N: 67, Held: held}, true,
			"the generator could not keep up: the VU pool was held at 48 for a moment: it at most doubles every 1s"},
		{"held by the target", 1000, 48, 67, sample.Drops{N: 67, ByTarget: true, Held: held}, true,
			"every VU was busy waiting for the target: the VU pool was held at 48 for a moment: it at most doubles every 1s"},
		{"a scenario whose name reads like the notice", 1000, 48, 67, sample.Drops{Label: "scenario a dropped; b: ", N: 67, Held: held}, true,
			"scenario a dropped; b: the generator could not keep up: the VU pool was held at 48 for a moment: it at most doubles every 1s"},
		{"at its ceiling", 48, 48, 67, sample.Drops{N: 67, Held: held}, false, ""},
		{"nothing dropped", 1000, 48, 0, sample.Drops{}, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &plan.Plan{Scenarios: []*plan.Scenario{{Load: plan.Load{MaxVUs: tc.maxVUs}}}}
			in := &report.Input{Run: &metrics.Run{Scenarios: []metrics.ScenarioTotal{{Dropped: tc.dropped, VUsMaxAllocated: tc.allocated}}}}
			if tc.drops.N > 0 {
				in.Drops, in.Notices = []sample.Drops{tc.drops}, []string{tc.drops.Notice()}
			}
			below, why := poolBelowMax(p, in)
			if below != tc.below || why != tc.why {
				t.Fatalf("below %v, %q; want %v, %q", below, why, tc.below, tc.why)
			}
		})
	}
}

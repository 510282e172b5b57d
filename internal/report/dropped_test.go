package report

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// TestDroppedAdviceFollowsWhatHeldThePool is trial defect E: "Raise
// max_vus" followed the engine's note that more VUs would only wait for
// the CPU. The advice after drops follows what held the VU pool.
func TestDroppedAdviceFollowsWhatHeldThePool(t *testing.T) {
	cases := []struct {
		reasons []string
		want    string
		never   string
	}{
		{[]string{"generator_cpu"}, "Give loadlens more CPU", "Raise max_vus"},
		{[]string{"max_vus", "generator_behind"}, "more VUs would only wait for the same CPU", "Raise max_vus"},
		{[]string{"max_vus"}, "Raise max_vus", "more CPU"},
		{[]string{"open_files"}, "Raise the open-file limit (ulimit -n)", "Raise max_vus"},
		{[]string{"latency"}, "more VUs would not have been used", "Raise max_vus"},
		{nil, "Raise max_vus", "more CPU"}, // a run.db from before the pool's series
	}
	for _, c := range cases {
		t.Run(strings.Join(c.reasons, "+"), func(t *testing.T) {
			l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "arrival-rate"}}}
			run := metrics.NewRun(l)
			snap := metrics.NewSnapshot(0, l)
			snap.Scenarios[0].Dropped = 26
			run.Add(snap)
			in := &Input{Run: run}
			for _, r := range c.reasons {
				in.Series = append(in.Series, &series.Series{Name: diagnose.GeneratorPoolHeld, Kind: series.Gauge, Points: []series.Point{{Sec: 0, Value: 10}},
					Labels: []series.Label{{Name: "reason", Value: r}, {Name: "role", Value: RoleGenerator}, {Name: "scenario", Value: "s"}}})
			}
			w := droppedWarning(in)
			if !strings.HasPrefix(w, "26 iterations were dropped for lack of a free VU") || !strings.Contains(w, c.want) || strings.Contains(w, c.never) {
				t.Errorf("%q, want it to say %q and never %q", w, c.want, c.never)
			}
		})
	}
}

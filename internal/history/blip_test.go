package history

import "testing"

// Trial C's figures of GET /step, in ms (one endpoint: 5 series examined
// together): the server answered in 20 ms, in 25 ms for runs 6 to 8, and
// in 20 ms again from run 9; run 4's p95 was a neighbour's blip (28.1 ms)
// and run 5's back at 21.9 ms. A second test's server stayed at 20 ms.
var (
	trialStepP50 = []float64{20.863, 20.799, 20.767, 20.847, 20.815, 25.903, 25.583, 25.903, 20.783, 20.911, 20.943, 20.767}
	trialStepP95 = []float64{21.967, 21.455, 22.943, 28.079, 21.855, 27.807, 26.975, 27.727, 21.215, 26.223, 84.095, 21.615}
	trialFlatP95 = []float64{21.055, 21.487, 22.463, 21.679, 21.983, 22.143, 21.839, 29.439, 23.695, 31.423, 21.903, 55.071}
	trialFlatP99 = []float64{22.479, 23.183, 29.279, 23.487, 25.775, 27.583, 26.479, 89.471, 39.999, 53.407, 32.895, 93.183}
)

// TestABlipIsNoLevel fails when a one-run blip counts as the first run of
// a level: with runs 1 to 7, the p95 step was found "from run 4" (the blip,
// then run 5 back at the old level pulled out as an outlier of the new
// one), though only runs 6 and 7 held the new level.
func TestABlipIsNoLevel(t *testing.T) {
	m := DefaultMethod.Among(len(Figures))
	for _, tc := range []struct {
		name string
		xs   []float64
		want []int // the runs (from 0) that start a new level
	}{
		{"blip at run 4, step at 6, 2 runs of it: not judged yet", trialStepP95[:7], nil},
		{"blip at run 4, step at 6, 1 run of it", trialStepP95[:6], nil},
		{"blip at run 4, step at 6, 3 runs of it: found at run 6", trialStepP95[:8], []int{5}},
		{"clean step at 6, 2 runs of it", trialStepP50[:7], nil},
		{"clean step at 6, 3 runs of it", trialStepP50[:8], []int{5}},
		{"clean step at 6 and back at 9", trialStepP50, []int{5, 8}},
		{"blip at 4, then 3 runs at the old level", []float64{22.0, 21.5, 22.9, 28.1, 21.9, 22.3, 21.7}, nil},
		{"blip inside the old level just before the step", []float64{22.0, 21.5, 22.9, 28.1, 21.9, 27.8, 27.0, 27.7}, []int{5}},
		{"blip of the old level inside the new one", []float64{22.0, 21.5, 22.9, 21.8, 22.4, 27.8, 27.0, 21.9, 27.7, 27.4}, []int{5}},
		{"two-run blip, then a step with 2 runs", []float64{22.0, 21.5, 22.9, 28.1, 27.9, 21.9, 22.2, 27.8, 27.0}, nil},
		{"unchanged p95 with noise", trialFlatP95, nil},
		{"unchanged p99 with noise", trialFlatP99, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := m.Detect(tc.xs, true)
			if len(got) != len(tc.want) {
				t.Fatalf("found %+v, want changes at %v", got, tc.want)
			}
			for i, s := range got {
				if s.At != tc.want[i] {
					t.Errorf("change %d at run %d, want %d (%+v)", i, s.At+1, tc.want[i]+1, s)
				}
			}
		})
	}
}

package capacity

import (
	"strings"
	"testing"
	"time"
)

// TestDroppedAdvisesMaxVUsOnlyAtTheCeiling: trial A's step 4 dropped 67 of
// 450 iterations with max_vus 1,000 and a pool held at 48 for growth, and
// was told to raise max_vus, which would have changed nothing.
func TestDroppedAdvisesMaxVUsOnlyAtTheCeiling(t *testing.T) {
	held := "the generator could not keep up: the VU pool was held at 48 for a moment: it at most doubles every 1s"
	tests := []struct {
		name      string
		r         StepResult
		want, not string
	}{
		{"pool at max_vus", StepResult{Rate: 30, Dropped: 67}, "67 iterations were dropped (14.9% of 450 due; raise max_vus)", ""},
		{"pool held below it", StepResult{Rate: 30, Dropped: 67, PoolBelowMax: true, DropWhy: held},
			"(14.9% of 450 due; the VU pool stayed below max_vus: " + held + ")", "raise max_vus"},
		{"below it, no notice", StepResult{Rate: 30, Dropped: 67, PoolBelowMax: true}, "due; the VU pool stayed below max_vus)", "raise max_vus"},
		{"within the budget", StepResult{Rate: 30, Dropped: 0}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{StartRate: 30, Hold: 15 * time.Second, MaxDropped: 0.001}
			got := (&search{cfg: cfg}).dropped(tc.r)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
				t.Fatalf("dropped: %q; want %q, without %q", got, tc.want, tc.not)
			}
		})
	}
}

package app

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestDescribeLoadCountsInTheRightNumber: one VU is "1 VU", counts are grouped.
func TestDescribeLoadCountsInTheRightNumber(t *testing.T) {
	for _, c := range []struct {
		name string
		load plan.Load
		want string
	}{
		{"one VU", plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: time.Second, Target: 1}}}, "vus 1 VU for 1s"},
		{"ramp to one VU", plan.Load{Model: plan.VUs, Stages: []plan.Stage{{Duration: time.Minute, Target: 1}}}, "vus 0→1 VU over 1m"},
		{"many VUs", plan.Load{Model: plan.VUs, StartVUs: 1, Stages: []plan.Stage{{Duration: time.Minute, Target: 2000}}}, "vus 1→2,000 VUs over 1m"},
		{"rate", plan.Load{Model: plan.ArrivalRate, StartRate: 1, PreAllocatedVUs: 1, MaxVUs: 1000,
			Stages: []plan.Stage{{Duration: time.Minute, Target: 1}}}, "arrival-rate 1/s for 1m; VUs 1..1,000"},
		{"rate per time_unit", plan.Load{Model: plan.ArrivalRate, StartRate: 1.0 / 7, PreAllocatedVUs: 1, MaxVUs: 9,
			Stages: []plan.Stage{{Duration: 6 * time.Second, Target: 1.0 / 7}}}, "arrival-rate 0.143/s for 6s; VUs 1..9"},
		{"one a day", plan.Load{Model: plan.ArrivalRate, StartRate: 0, PreAllocatedVUs: 1, MaxVUs: 1,
			Stages: []plan.Stage{{Duration: time.Minute, Target: 1.0 / 86400}}}, "arrival-rate 0→0.0000116/s over 1m; VUs 1..1"},
		{"a rate as written", plan.Load{Model: plan.ArrivalRate, StartRate: 1234.5, PreAllocatedVUs: 1, MaxVUs: 9,
			Stages: []plan.Stage{{Duration: time.Minute, Target: 1234.5}}}, "arrival-rate 1,234.5/s for 1m; VUs 1..9"},
		{"iterations", plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1500, MaxDuration: 10 * time.Minute}, "iterations: 1,500 shared by 1 VU (at most 10m)"},
	} {
		if got := DescribeLoad(&c.load); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

package capacityrun

import (
	"context"
	"errors"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/capacity"
)

// A CI job reads exit 0 as "the capacity was found": a search that found
// none, or could not tell, must say so in its exit code
// (docs/capacity.md, "Exit codes").
func TestSearchExitCodeSaysWhetherCapacityWasFound(t *testing.T) {
	boom := errors.New("disk full")
	cases := []struct {
		name    string
		ctxErr  error
		serr    error
		res     capacity.Result
		want    int
		wantErr bool
	}{
		{"converged", nil, nil, capacity.Result{Stop: capacity.Converged, Highest: 400, LowestFailing: 450}, app.ExitOK, false},
		{"held to the max rate", nil, nil, capacity.Result{Stop: capacity.MaxRateReached, Highest: 800}, app.ExitOK, false},
		{"generator saturated past a pass", nil, nil, capacity.Result{Stop: capacity.GeneratorSaturated, Highest: 300}, app.ExitOK, false},
		{"host too busy, nothing held", nil, nil, capacity.Result{Stop: capacity.HostBusy}, app.ExitNotDetermined, false},
		{"host too busy above a rate that held", nil, nil, capacity.Result{Stop: capacity.HostBusy, Highest: 1600}, app.ExitNotDetermined, false},
		// trial A39: 3,417 held, the budget ended on a busy run of 3,844 that was never judged
		{"budget spent on a rate above the pass that was not judged", nil, nil,
			capacity.Result{Stop: capacity.BudgetSpent, Highest: 3417, LowestFailing: 4271, Unjudged: 3844}, app.ExitNotDetermined, false},
		{"budget spent before any step was judged", nil, nil, capacity.Result{Stop: capacity.BudgetSpent}, app.ExitNotDetermined, false},
		{"target failed", nil, nil, capacity.Result{Stop: capacity.TargetFailed, LowestFailing: 20}, app.ExitThresholdFailed, false},
		{"nothing passed", nil, nil, capacity.Result{Stop: capacity.NothingPassed, LowestFailing: 2}, app.ExitThresholdFailed, false},
		{"budget spent, only failures", nil, nil, capacity.Result{Stop: capacity.BudgetSpent, LowestFailing: 50}, app.ExitThresholdFailed, false},
		{"interrupted", context.Canceled, context.Canceled, capacity.Result{Stop: capacity.Interrupted}, app.ExitRunFailed, false},
		{"a step failed to run", nil, boom, capacity.Result{Stop: capacity.StepError, Highest: 100}, app.ExitRunFailed, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, err := searchExitCode(c.ctxErr, c.serr, c.res)
			if code != c.want || (err != nil) != c.wantErr {
				t.Errorf("exit %d, err %v; want exit %d, err %v", code, err, c.want, c.wantErr)
			}
		})
	}
}

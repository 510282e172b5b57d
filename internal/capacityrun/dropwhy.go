package capacityrun

import (
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
)

// poolBelowMax reports whether every scenario of a step that dropped
// iterations held fewer VUs than its max_vus, and what the run said held
// its pool (the engine's drops, their cause without the count): then the
// drops are not max_vus's, and "raise max_vus" would be wrong advice.
func poolBelowMax(p *plan.Plan, in *report.Input) (bool, string) {
	dropping := false
	for i := range in.Run.Scenarios {
		sc := &in.Run.Scenarios[i]
		if sc.Dropped == 0 || i >= len(p.Scenarios) {
			continue
		}
		dropping = true
		if ceiling := p.Scenarios[i].Load.MaxVUs; ceiling <= 0 || sc.VUsMaxAllocated >= int64(ceiling) {
			return false, "" // this one stood at its ceiling: max_vus is the remedy
		}
	}
	if !dropping {
		return false, ""
	}
	for _, d := range in.Drops {
		if d.N > 0 {
			return true, d.Cause() // "the generator could not keep up: the VU pool was held at 48 …"
		}
	}
	return true, ""
}

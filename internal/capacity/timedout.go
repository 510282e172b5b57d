package capacity

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/units"
)

// ownTimeouts says how the requests a busy step's target left unanswered
// past their timeout are its own, past the error budget, or "". A
// generator waiting for a CPU reads an answer that has arrived within its
// scheduling lag, and a stall delays it by its length: twice each (as the
// latency's rule allows) is all of a wait it can explain, so a timeout at
// least twice that long is the target's (or its network's). Run 7's shop at
// 5,767/s left 17–22 % of its requests unanswered for 5 s while loadlens,
// holding 11,000–13,000 VUs that waited on it, had a lag p99 of 121–144 ms:
// the generator's busyness followed the target's queue.
func (s *search) ownTimeouts(r StepResult) string {
	if r.TimedOut <= 0 || r.Requests <= 0 || r.Timeout <= 0 {
		return ""
	}
	share := float64(r.TimedOut) / float64(r.Requests)
	explained := 2*r.LagP99 + 2*r.Stall
	if share <= s.cfg.MaxErrorRate || 2*explained > r.Timeout {
		return ""
	}
	return fmt.Sprintf("it left %s of the %s unanswered for their %s timeout (%s, %s), where the generator's delays explain at most %s of a wait (%s)",
		units.Count(r.TimedOut), s.cfg.Unit.Or().Count(r.Requests), units.Duration(r.Timeout), units.Percent(share), s.budgetWords(),
		units.Duration(explained), delayWords(r))
}

// budgetWords names the error budget a step's own errors are past.
func (s *search) budgetWords() string {
	if s.cfg.MaxErrorRate < 1e-6 { // `rate == 0` is a budget of 1e-9 (threshold.ErrorBudget)
		return "where the SLO allows none"
	}
	return "over the error budget of " + units.Share(s.cfg.MaxErrorRate)
}

// delayWords names the generator's delays a wait is measured against.
func delayWords(r StepResult) string {
	return "twice the lag p99 " + units.Duration(r.LagP99) + " and twice the longest stall " + units.Duration(r.Stall)
}

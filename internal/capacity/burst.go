package capacity

import (
	"fmt"

	"github.com/loadlens/loadlens/internal/units"
)

// LatencyStands is why a failure on a busy host stood on its latency in a
// capacity.json of an earlier build, which had no figures in its words
// (Record.Stands, or none); the search now words it with targetOwn.
const LatencyStands = "the mean latency less twice the lag p99 and twice the generator's longest stall is past the latency limit"

// ownErrors says how the errors a busy step's target answered are its
// own, past the error budget, or "". A busy generator makes a target fail
// in one way: a stall releases the arrivals due during it at once, and a
// rate-limited target refuses the part of the burst past its allowance.
// Each late arrival (Second.Late) can cost one refusal — its own, or that
// of the arrival on time whose allowance it took — of each of its
// requests, in its second or the next (a refusal is fast, but may end
// after the second turned). The errors no late arrival accounts for are
// the target's, such as the refusals a rate limit spreads over seconds in
// which the generator was on time.
func (s *search) ownErrors(r StepResult) string {
	if r.Requests == 0 || len(r.Seconds) == 0 {
		return ""
	}
	var own, answered, carried int64
	for _, sec := range r.Seconds {
		late := int64(float64(sec.Late) * s.cfg.RequestsPerIteration)
		spent := min(sec.Answered, carried+late)
		own += sec.Answered - spent
		answered += sec.Answered
		carried = min(late, carried+late-spent) // what this second's late arrivals left for the next
	}
	share := float64(own) / float64(r.Requests)
	if share <= s.cfg.MaxErrorRate {
		return ""
	}
	budget := "over the error budget of " + units.Share(s.cfg.MaxErrorRate)
	if s.cfg.MaxErrorRate < 1e-6 { // `rate == 0` is a budget of 1e-9 (threshold.ErrorBudget)
		budget = "where the SLO allows none"
	}
	return fmt.Sprintf("it answered %s of the %s with errors no late arrival of the generator explains (of %s errors it answered; %s, %s)",
		units.Count(own), s.cfg.Unit.Or().Count(r.Requests), units.Count(answered), units.Percent(share), budget)
}

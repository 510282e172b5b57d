package capacity

import (
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/units"
)

// LatencyStands is why a failure on a busy host stands when its latency
// is past what the host could add (Record.Stands).
const LatencyStands = "the mean latency less twice the lag p99 and twice the generator's longest stall is past the latency limit"

// burstFactor bounds what one second's bursts could make a target refuse,
// in arrivals due while the generator held them back: a second may hold
// more than one stall, and a late arrival may take the slot of the one on
// time after it at a target that paces its requests.
const burstFactor = 2

// ownErrors says how the errors a busy step's target answered are its
// own, past the error budget, or "": the one way a busy generator makes a
// target fail is a stall that releases the arrivals due during it at once,
// which a rate-limited target refuses. In a second it holds them back for
// Held, such a burst is at most Rate × Held iterations, each sending
// RequestsPerIteration requests; a refusal ends in the second of its burst
// or the next. Errors past burstFactor bursts of their second or the one
// before are the target's, spread as a rate limit spreads them.
func (s *search) ownErrors(r StepResult) string {
	if r.Requests == 0 || len(r.Seconds) == 0 {
		return ""
	}
	var own, answered int64
	for i, sec := range r.Seconds {
		held := sec.Held
		if i > 0 {
			held = max(held, r.Seconds[i-1].Held)
		}
		burst := int64(math.Ceil(burstFactor * r.Rate * s.cfg.RequestsPerIteration * held.Seconds()))
		own += max(0, sec.Answered-burst)
		answered += sec.Answered
	}
	share := float64(own) / float64(r.Requests)
	if share <= s.cfg.MaxErrorRate {
		return ""
	}
	u := s.cfg.Unit.Or()
	budget := "over the error budget of " + units.Share(s.cfg.MaxErrorRate)
	if s.cfg.MaxErrorRate < 1e-6 { // `rate == 0` is a budget of 1e-9 (threshold.ErrorBudget)
		budget = "where the SLO allows none"
	}
	return fmt.Sprintf("the target answered %s of the %s with errors no burst of the generator explains (of %s errors it answered; %s, %s)",
		units.Count(own), u.Count(r.Requests), units.Count(answered), units.Percent(share), budget)
}

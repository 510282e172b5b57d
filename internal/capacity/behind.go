package capacity

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// behindSlack is the share of a hold's arrivals that may end after it
// without the target falling behind, beyond what the iterations' own
// length and the generator's lag carry past the hold's end: completions
// wobble by a few percent.
const behindSlack = 0.02

// fellBehind says how a step that met its thresholds still did not hold
// its rate, or "": the target completed too few of the iterations the hold
// offered (neither completed nor dropped in it), so its queue grew and a
// longer hold would have failed the SLO. A p95 over a short hold lags a
// growing queue; the completions do not.
func fellBehind(r StepResult, hold time.Duration) string {
	return behindPast(r, hold, r.LagP99)
}

// behindPast is fellBehind with late the generator's delay the hold's
// last arrivals may carry past its end.
func behindPast(r StepResult, hold, late time.Duration) string {
	if r.Offered <= 0 || hold <= 0 {
		return ""
	}
	carried := (r.IterationMean + late).Seconds() / hold.Seconds()
	short := float64(r.Offered-r.Completed-r.HoldDropped) / float64(r.Offered)
	if short <= behindSlack+carried {
		return ""
	}
	return fmt.Sprintf("%s completed %s of the %s offered, %s short: the target fell behind",
		holdWord, Iterations(float64(r.Completed)/hold.Seconds()), Iterations(float64(r.Offered)/hold.Seconds()), units.Percent(short))
}

// holdWord starts the failed threshold fellBehind adds to a step.
const holdWord = "throughput:"

// endLate is how late the hold's last arrivals came, from its seconds: an
// iteration of second i started up to its lag and its wait for a CPU after
// the second's end, which carries it past the hold's end only in the
// hold's last second (or, late by more than a second, in the seconds
// before). A stall earlier in the hold delayed iterations the hold still
// completed. ok is false when the seconds do not cover the hold.
func endLate(r StepResult, hold time.Duration) (late time.Duration, ok bool) {
	n := int(hold / time.Second)
	if n == 0 || len(r.Seconds) < n {
		return 0, false
	}
	for i, sec := range r.Seconds[:n] {
		left := time.Duration(n-1-i) * time.Second // the hold after the second
		late = max(late, sec.Lag+sec.Wait-left)
	}
	return late, true
}

// carried is how late a busy step's last arrivals may complete for the
// generator's sake: twice their lateness (a stall delays the iterations it
// holds by its length and, through the burst it releases, the target's
// queue by about as much again), from the hold's last seconds when they
// say, else from the step's lag p99 and longest stall.
func (s *search) carried(r StepResult) time.Duration {
	if late, ok := endLate(r, s.cfg.Hold); ok {
		return 2 * late
	}
	return 2*r.LagP99 + 2*r.Stall
}

// carriedWords says what carried allowed for, after a shortfall.
func carriedWords(r StepResult, hold time.Duration) string {
	if late, ok := endLate(r, hold); ok {
		return "more than twice the lateness of the hold's last arrivals (" + units.Duration(late) + ") carries past its end"
	}
	return "more than twice the lag p99 and the longest stall carry past the hold"
}

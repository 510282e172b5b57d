package capacity

import (
	"fmt"
	"math"
	"slices"
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
	carried := (inFlight(r, hold) + late).Seconds() / hold.Seconds()
	short := float64(r.Offered-r.Completed-r.HoldDropped) / float64(r.Offered)
	if short <= behindSlack+carried {
		return ""
	}
	return fmt.Sprintf("%s completed %s of the %s offered, %s short: the target fell behind",
		holdWord, Iterations(float64(r.Completed)/hold.Seconds()), Iterations(float64(r.Offered)/hold.Seconds()), units.Percent(short))
}

// steadyRise is how far the mean length of the hold's last iterations may
// be above the median second's for its queue to count as steady: a queue
// that grows lengthens them second by second, one that holds does not,
// and a second's mean of a few dozen iterations wobbles by a fifth.
const steadyRise = 1.3

// steadyEnd is how many of the hold's last seconds say how long the
// iterations it left in flight take.
const steadyEnd = 3

// steadySlope is how fast, in seconds per second, the iterations of the
// hold's last steadyTail seconds may still lengthen for a queue that rose
// earlier in the hold to count as steady: offered (1+e)× what the target
// completes, a queue lengthens its iterations by e seconds each second, so
// the shortfall's own slack as a growth rate. A near-full target's queue
// takes seconds to form (a DB at 11.4/s: 48 ms at 0:01, 523 ms at 0:07,
// then 460, 477 ms), which the median second alone reads as growth.
const steadySlope = behindSlack

// steadyTail is how many of the hold's last seconds the slope is fitted to.
const steadyTail = 4

// inFlight is how long the iterations the hold leaves in flight at its end
// take: with a steady queue (the hold's last seconds' iterations no longer
// than steadyRise × the median second's), as long as those last ones, since
// at a steady queue as many arrivals are in flight at the end as the rate
// times their length (Little's law: a DB at 394 ms left 4.5 of 114 in
// flight, 4 % "short" of a rate it held); with a growing one, or seconds
// that do not say, the quickest second's, so that the queue's growth shows.
func inFlight(r StepResult, hold time.Duration) time.Duration {
	n := int(hold / time.Second)
	if n < 2*steadyEnd || len(r.Seconds) < n {
		return r.IterationMean
	}
	var means []time.Duration
	for _, s := range r.Seconds[:n] {
		if s.Iterations > 0 {
			means = append(means, s.IterationMean)
		}
	}
	var done int64
	var weighted float64
	for _, s := range r.Seconds[n-steadyEnd : n] {
		done += s.Iterations
		weighted += float64(s.Iterations) * float64(s.IterationMean)
	}
	if done == 0 || len(means) < n/2 {
		return r.IterationMean
	}
	end := time.Duration(weighted / float64(done))
	tail := tailSlope(r.Seconds[n-steadyTail : n])
	slices.Sort(means)
	if median := means[len(means)/2]; float64(end) > steadyRise*float64(median) && !(tail <= steadySlope) {
		return r.IterationMean
	}
	return max(end, r.IterationMean)
}

// tailSlope is the least-squares slope, in seconds per second, of the
// iterations' mean length over secs (those with iterations), or NaN when
// fewer than 3 say.
func tailSlope(secs []Second) float64 {
	var n, sx, sy, sxx, sxy float64
	for i, s := range secs {
		if s.Iterations == 0 {
			continue
		}
		x, y := float64(i), s.IterationMean.Seconds()
		n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := n*sxx - sx*sx
	if n < 3 || den == 0 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / den
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

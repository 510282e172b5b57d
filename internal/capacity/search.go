package capacity

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// search is one breakpoint search in progress.
type search struct {
	cfg    Config
	runner Runner
	res    Result
	spent  time.Duration // hold time of the steps run
}

// errStop ends a phase early; res.Stop says why.
type errStop struct{ err error }

// run raises the rate until a step fails, then bisects. It returns an
// error only when a step could not run or the context ended.
func (s *search) run(ctx context.Context) error {
	rate := s.cfg.StartRate
	for {
		rec, stop := s.step(ctx, rate, Raise)
		if stop != nil {
			return stop.err
		}
		if !rec.Passed {
			break
		}
		next := s.next(rate)
		if s.cfg.MaxRate > 0 && next > s.cfg.MaxRate {
			if rate >= s.cfg.MaxRate {
				s.finish(MaxRateReached, fmt.Sprintf("the SLO held up to the max rate %s; the system may sustain more", Iterations(rate)))
				return nil
			}
			next = s.cfg.MaxRate
		}
		rate = next
	}
	for {
		lo, hi := s.res.Highest, s.res.LowestFailing
		if lo == 0 && hi < s.cfg.StartRate/10 {
			s.finish(NothingPassed, fmt.Sprintf("the SLO failed at every rate tried, down to %s", Iterations(hi)))
			return nil
		}
		if hi-lo <= s.cfg.Precision*hi {
			s.finish(Converged, fmt.Sprintf("the boundary lies between %s (passed) and %s (failed), within %s",
				Iterations(lo), Iterations(hi), units.Share(s.cfg.Precision)))
			return nil
		}
		if _, stop := s.step(ctx, (lo+hi)/2, Bisect); stop != nil {
			return stop.err
		}
	}
}

// next is the rate of the step after one at rate.
func (s *search) next(rate float64) float64 {
	if s.cfg.Increment > 0 {
		return rate + s.cfg.Increment
	}
	return rate * s.cfg.Factor
}

// step runs one rate until it can be judged, and records every run. A run
// whose verdict could be the busy host's is run again, at most MaxRetries
// times. It returns a
// non-nil errStop when the search must end: budget, step limit, context,
// runner error, a host busy on every attempt, or a VU ceiling.
func (s *search) step(ctx context.Context, rate float64, phase Phase) (Record, *errStop) {
	for attempt := 1; ; attempt++ {
		if stop := s.canRun(ctx, rate); stop != nil {
			return Record{}, stop
		}
		res, err := s.runner.RunStep(ctx, Step{Rate: rate, Hold: s.cfg.Hold})
		if err != nil {
			if ctx.Err() != nil {
				s.finish(Interrupted, "interrupted during the step at "+Iterations(rate))
			} else {
				s.finish(StepError, fmt.Sprintf("the step at %s failed to run: %v", Iterations(rate), err))
			}
			return Record{}, &errStop{fmt.Errorf("capacity: step at %s: %w", Iterations(rate), err)}
		}
		s.spent += s.cfg.Hold
		res.Rate = rate
		if why := s.errorsPast(res); why != "" && !namesErrors(res.FailedThresholds) {
			res.Passed, res.FailedThresholds = false, append(res.FailedThresholds, why)
		}
		if why := fellBehind(res, s.cfg.Hold); why != "" && res.Passed {
			res.Passed, res.FailedThresholds = false, append(res.FailedThresholds, why)
		}
		rec := Record{StepResult: res, Phase: phase, Attempt: attempt, Busy: s.busy(res), Saturation: s.dropped(res)}
		if s.hostsDoing(&rec) {
			if attempt <= s.cfg.MaxRetries {
				rec.Retried = true
				s.record(rec)
				s.res.Retries++
				if stop := s.pause(ctx, rate); stop != nil {
					return rec, stop
				}
				continue
			}
			s.record(rec)
			host := "the load generator's host could not generate"
			if rec.Starved != "" {
				host = "the target's host was too busy for it to serve"
			}
			s.finish(HostBusy, fmt.Sprintf("%s %s: busy %s (last: %s)", host, Iterations(rate), attempts(attempt), rec.Busy))
			return rec, &errStop{}
		}
		rec.Judged = !(rec.Passed && rec.Saturation != "") // a pass flattered by drops says nothing
		s.record(rec)
		return rec, s.judge(rec)
	}
}

// canRun returns why no further step may run, or nil.
func (s *search) canRun(ctx context.Context, rate float64) *errStop {
	switch {
	case ctx.Err() != nil:
		s.finish(Interrupted, "interrupted before the step at "+Iterations(rate))
		return &errStop{ctx.Err()}
	case len(s.res.Steps) >= s.cfg.MaxSteps:
		s.finish(StepLimit, units.CountOf(int64(len(s.res.Steps)), "step", "steps")+" run, the most allowed")
		return &errStop{}
	case s.cfg.Budget > 0 && s.spent+s.cfg.Hold > s.cfg.Budget:
		s.finish(BudgetSpent, fmt.Sprintf("%s of the %s budget spent; another step needs %s", units.Duration(s.spent), units.Duration(s.cfg.Budget), units.Duration(s.cfg.Hold)))
		return &errStop{}
	}
	return nil
}

// pause waits RetryPause before a retry, so that a burst of work on the
// host can pass; the context ends the wait.
func (s *search) pause(ctx context.Context, rate float64) *errStop {
	t := time.NewTimer(s.cfg.RetryPause)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		s.finish(Interrupted, "interrupted before the retry of the step at "+Iterations(rate))
		return &errStop{ctx.Err()}
	}
}

// record keeps a run of a step and reports it.
func (s *search) record(rec Record) {
	s.res.Steps = append(s.res.Steps, rec)
	if s.cfg.Progress != nil {
		s.cfg.Progress(rec)
	}
}

// judge counts a run the host did not disturb as a pass or a failure.
// Dropped iterations only make latency look better than it was, so a
// failure with drops is still a failure; a pass with drops says only that
// the VU ceiling was too low, which no retry changes.
func (s *search) judge(rec Record) *errStop {
	if rec.Saturation != "" && rec.Passed {
		s.finish(GeneratorSaturated, fmt.Sprintf("at %s %s: past this point the figures describe the load generator, not the system",
			Iterations(rec.Rate), rec.Saturation))
		return &errStop{}
	}
	if rec.Passed {
		s.res.Highest = max(s.res.Highest, rec.Rate)
		return nil
	}
	first := s.res.LowestFailing == 0 && s.res.Highest == 0
	if s.res.LowestFailing == 0 {
		s.res.FirstFailure = rec.FailedThresholds
	}
	if s.res.LowestFailing == 0 || rec.Rate < s.res.LowestFailing {
		s.res.LowestFailing = rec.Rate
	}
	if first && rec.Requests > 0 && rec.ErrorRate >= 1 {
		u := s.cfg.Unit.Or()
		s.finish(TargetFailed, fmt.Sprintf("every %s failed at the first step (%s, %s sent): the target is down, refusing, or answering only errors; there is no capacity to search (check it, or lower --start)",
			u.One, Iterations(rec.Rate), u.Count(rec.Requests)))
		return &errStop{}
	}
	return nil
}

// namesErrors reports whether a failed threshold of the SLO is on errors
// already, which says what the error budget would.
func namesErrors(failed []string) bool {
	for _, f := range failed {
		if strings.HasPrefix(f, "http_req_failed") {
			return true
		}
	}
	return false
}

// errorsPast says how a step's requests failed past the error budget, or
// "": a failed request is no capacity, however fast it failed.
func (s *search) errorsPast(r StepResult) string {
	if r.Requests == 0 || r.ErrorRate <= s.cfg.MaxErrorRate {
		return ""
	}
	what := units.Percent(r.ErrorRate)
	if r.ErrorRate >= 1 {
		what = "every " + s.cfg.Unit.Or().One + " failed, " + units.Count(r.Requests) + " sent"
	}
	return fmt.Sprintf("%s errors <= %s (%s)", errorBudget, units.Share(s.cfg.MaxErrorRate), what)
}

// errorBudget starts the failed threshold errorsPast adds to a step.
const errorBudget = "error budget:"

// hostsDoing reports whether a run's verdict could be the busy host's
// rather than the system's. Lag and a slow generator only add to latency
// timed from the intended start, so a pass on a busy host stands, unless
// drops flattered it. A stall of the generator adds its length to the
// iterations it delays and, with the burst it releases, at most about as
// much again in the target's queue while the target has capacity to spare;
// a generator waiting for a CPU also delays reading a response that has
// arrived, by up to its goroutines' scheduling latency. So a failure stands
// when the mean latency less twice the lag p99 and twice the longest
// scheduling latency is still past the SLO's latency limit, or when the
// errors the target answered past what the generator's bursts explain are
// past the error budget (burst.go), or when it left requests unanswered
// past the error budget for a timeout at least twice what twice the lag and
// twice the stall add up to (timedout.go), or when the target completed less than
// it was offered by more than the lag and the stall carry past the hold
// (behind.go); a failure the step's diagnosis
// distrusts and no figure bounds is never judged, nor one whose drops past
// the limit came while loadlens held its own VU pool (GeneratorHeld): the
// generator was the queue, so a shortfall or latency is no longer the
// target's alone (trial A39: "FAIL, the target's" at 4,271/s with 4,781 of
// loadlens's goroutines waiting for a CPU). Nor is one whose target the
// host's other processes starved of CPU (Starved): its latency is past
// anything the generator's lag bounds (trial A40: "FAIL, the target's" at
// 20/s while the app used 16.7 % of the host's CPUs, other processes
// 83.3 %). It sets rec.Stands to
// why a failure on a busy host stands, in words (ownErrors, targetOwn).
func (s *search) hostsDoing(rec *Record) bool {
	switch {
	case rec.Busy == "":
		return false
	case rec.Passed:
		return rec.Saturation != ""
	case rec.Starved != "":
		return true // other processes took the target's CPU: its latency, shortfall and errors are the host's, whatever the lag
	}
	if why := s.ownErrors(rec.StepResult); why != "" {
		rec.Stands = why
		return false
	}
	if why := s.ownTimeouts(rec.StepResult); why != "" {
		rec.Stands = why
		return false
	}
	if rec.Saturation != "" && rec.GeneratorHeld {
		return true // the generator was the queue: its unread responses are in the shortfall and the latency
	}
	// the target fell behind by more than twice its last arrivals' lateness (or the lag and the stall) could carry past the hold
	if why := behindPast(rec.StepResult, s.cfg.Hold, s.carried(rec.StepResult)); why != "" {
		rec.Stands = strings.TrimPrefix(why, holdWord+" ") + ", " + carriedWords(rec.StepResult, s.cfg.Hold)
		return false
	}
	limit := s.cfg.LatencyLimit
	if rec.Diagnosis != "" && rec.Stall <= 0 {
		return true
	}
	if limit > 0 && rec.Mean-2*rec.LagP99-2*rec.Stall > limit {
		rec.Stands = s.targetOwn(*rec)
		return false
	}
	return true
}

// targetOwn words the judgement hostsDoing passed a failure on a busy host
// by when its errors did not decide it: its latency past the limit beyond
// what the lag and the stall explain, and, when the target completed under
// shortOf of what the step offered, its throughput short of it: it queued.
func (s *search) targetOwn(rec Record) string {
	var less []string
	if rec.LagP99 > 0 {
		less = append(less, "twice the lag p99 ("+units.Duration(rec.LagP99)+")")
	}
	if rec.Stall > 0 {
		less = append(less, "twice the generator's longest stall ("+units.Duration(rec.Stall)+")")
	}
	mean := "its mean latency " + units.Duration(rec.Mean)
	if len(less) > 0 {
		mean += " less " + strings.Join(less, " and ") + " is " + units.Duration(rec.Mean-2*rec.LagP99-2*rec.Stall)
	}
	why := mean + ", past the latency limit of " + units.Duration(s.cfg.LatencyLimit)
	u := s.cfg.Unit.Or()
	if offered := rec.Rate * s.cfg.RequestsPerIteration; rec.Throughput < shortOf*offered {
		why += fmt.Sprintf(", and it completed %s of the %s offered: it queued", u.Rate(rec.Throughput), u.Rate(offered))
	}
	return why
}

// shortOf is the share of the offered rate below which a step's throughput
// says the target fell behind: completions wobble by a few percent.
const shortOf = 0.95

// busy says how a run's own measurements show that the generator's host
// was busy, or "": scheduling lag past its limit, the generator's CPU near
// its cores, CPU stolen by the hypervisor, the step's diagnosis (which
// also reads the generator's wait for a CPU and its scheduling latency),
// drops past the limit while loadlens held its own VU pool, the target's
// CPU taken by other processes (Starved), or, under all
// of those, a failure on errors its late arrivals explain (bunched).
// The host's total CPU is shown but not judged on its own: the target may
// share the host, and its saturation is what the search measures.
func (s *search) busy(r StepResult) string {
	var why []string
	if r.LagP99 > s.cfg.MaxLag {
		why = append(why, fmt.Sprintf("scheduling lag p99 %s > %s", units.Duration(r.LagP99), units.Duration(s.cfg.MaxLag)))
	}
	if r.GeneratorCPU > s.cfg.MaxCPU {
		why = append(why, fmt.Sprintf("generator CPU %s > %s of its cores", units.Share(r.GeneratorCPU), units.Share(s.cfg.MaxCPU)))
	}
	if r.HostKnown && r.HostSteal > s.cfg.MaxSteal {
		why = append(why, fmt.Sprintf("CPU steal %s > %s", units.Share(r.HostSteal), units.Share(s.cfg.MaxSteal)))
	}
	held := r.GeneratorHeld && s.dropped(r) != "" // loadlens held its own pool: its drops say it was busy
	if len(why) == 0 && r.Diagnosis == "" && r.Starved == "" && !held {
		b := s.bunched(r) // under every limit, yet the generator's bursts explain its errors
		if b == "" {
			return ""
		}
		why = append(why, b)
	}
	if r.HostKnown {
		why = append(why, "host CPU "+units.Share(r.HostCPU)+" busy")
	}
	if d := s.dropped(r); d != "" {
		why = append(why, d)
	}
	if r.Diagnosis != "" { // a sentence of its own, after the figures
		why = append(why, "the step's diagnosis: "+r.Diagnosis)
	}
	if r.Starved != "" {
		why = append(why, "the target was starved: "+r.Starved)
	}
	return strings.Join(why, ", ")
}

// dropped says how many iterations a run dropped past the limit, and why,
// or "": max_vus is only the remedy when the pool stood at it.
func (s *search) dropped(r StepResult) string {
	arrivals := r.Rate * s.cfg.Hold.Seconds()
	if r.Dropped == 0 || float64(r.Dropped) <= s.cfg.MaxDropped*arrivals {
		return ""
	}
	why := "raise max_vus"
	if r.PoolBelowMax {
		why = "the VU pool stayed below max_vus"
		if r.DropWhy != "" {
			why += ": " + r.DropWhy
		}
	}
	return fmt.Sprintf("%s dropped (%s of %s due; %s)", units.CountOf(r.Dropped, "iteration was", "iterations were"),
		units.Share(float64(r.Dropped)/arrivals), units.Number(arrivals), why)
}

// Iterations writes a rate of the search, which is in iterations per
// second: "120 iterations/s".
func Iterations(rate float64) string { return units.Rate(rate, "iterations") }

// finish records why the search ended.
func (s *search) finish(reason StopReason, detail string) {
	s.res.Stop, s.res.StopDetail = reason, detail
}

// attempts writes "on each of 3 attempts", or "on its one attempt".
func attempts(n int) string {
	if n == 1 {
		return "on its one attempt (retries are off)"
	}
	return "on each of " + units.CountOf(int64(n), "attempt", "attempts")
}

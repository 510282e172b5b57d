package capacity

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
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
				s.finish(MaxRateReached, fmt.Sprintf("the SLO held up to the max rate %s/s; the system may sustain more", num(rate)))
				return nil
			}
			next = s.cfg.MaxRate
		}
		rate = next
	}
	for {
		lo, hi := s.res.Highest, s.res.LowestFailing
		if lo == 0 && hi < s.cfg.StartRate/10 {
			s.finish(NothingPassed, fmt.Sprintf("the SLO failed at every rate tried, down to %s/s", num(hi)))
			return nil
		}
		if hi-lo <= s.cfg.Precision*hi {
			s.finish(Converged, fmt.Sprintf("the boundary lies between %s/s (passed) and %s/s (failed), within %s%%",
				num(lo), num(hi), num(100*s.cfg.Precision)))
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

// step runs one step and records it. It returns a non-nil errStop when the
// search must end: budget, step limit, context, runner error, or a
// generator past its limits.
func (s *search) step(ctx context.Context, rate float64, phase Phase) (Record, *errStop) {
	switch {
	case ctx.Err() != nil:
		s.finish(Interrupted, "interrupted before the step at "+num(rate)+"/s")
		return Record{}, &errStop{ctx.Err()}
	case len(s.res.Steps) >= s.cfg.MaxSteps:
		s.finish(StepLimit, fmt.Sprintf("%d steps run, the most allowed", len(s.res.Steps)))
		return Record{}, &errStop{}
	case s.cfg.Budget > 0 && s.spent+s.cfg.Hold > s.cfg.Budget:
		s.finish(BudgetSpent, fmt.Sprintf("%s of the %s budget spent; another step needs %s", s.spent, s.cfg.Budget, s.cfg.Hold))
		return Record{}, &errStop{}
	}
	res, err := s.runner.RunStep(ctx, Step{Rate: rate, Hold: s.cfg.Hold})
	if err != nil {
		if ctx.Err() != nil {
			s.finish(Interrupted, "interrupted during the step at "+num(rate)+"/s")
		} else {
			s.finish(StepError, fmt.Sprintf("the step at %s/s failed to run: %v", num(rate), err))
		}
		return Record{}, &errStop{fmt.Errorf("capacity: step at %s/s: %w", num(rate), err)}
	}
	s.spent += s.cfg.Hold
	res.Rate = rate
	rec := Record{StepResult: res, Phase: phase, Saturation: s.saturation(res)}
	s.res.Steps = append(s.res.Steps, rec)
	// Dropped iterations only make latency look better than it was, so a
	// failure with drops is still a failure; anything else past the
	// generator's limits says nothing about the system.
	trusted := rec.Saturation == "" || (!res.Passed && res.GeneratorCPU <= s.cfg.MaxCPU && res.LagP99 <= s.cfg.MaxLag)
	if !trusted {
		s.finish(GeneratorSaturated, fmt.Sprintf("at %s/s %s: past this point the figures describe the load generator, not the system",
			num(rate), rec.Saturation))
		return rec, &errStop{}
	}
	if res.Passed {
		s.res.Highest = max(s.res.Highest, rate)
	} else {
		if s.res.LowestFailing == 0 {
			s.res.FirstFailure = res.FailedThresholds
		}
		if s.res.LowestFailing == 0 || rate < s.res.LowestFailing {
			s.res.LowestFailing = rate
		}
	}
	return rec, nil
}

// saturation says which generator limits a step went past, or "".
func (s *search) saturation(r StepResult) string {
	var why []string
	if r.GeneratorCPU > s.cfg.MaxCPU {
		why = append(why, fmt.Sprintf("the generator's CPU reached %s%% of its cores (limit %s%%)", num(100*r.GeneratorCPU), num(100*s.cfg.MaxCPU)))
	}
	if r.LagP99 > s.cfg.MaxLag {
		why = append(why, fmt.Sprintf("its scheduling lag p99 reached %s (limit %s)", r.LagP99, s.cfg.MaxLag))
	}
	if arrivals := r.Rate * s.cfg.Hold.Seconds(); r.Dropped > 0 && float64(r.Dropped) > s.cfg.MaxDropped*arrivals {
		why = append(why, fmt.Sprintf("%d iterations were dropped (%s%% of %s due; raise max_vus)", r.Dropped,
			num(100*float64(r.Dropped)/arrivals), num(arrivals)))
	}
	return strings.Join(why, "; ")
}

// finish records why the search ended.
func (s *search) finish(reason StopReason, detail string) {
	s.res.Stop, s.res.StopDetail = reason, detail
}

// num formats a rate: whole numbers from 100, else up to two decimals.
func num(v float64) string {
	switch {
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

package main

import (
	"context"
	"fmt"
	"time"
)

// SweepStep is one fixed-rate step of the harness's own capacity sweep,
// judged on the server's own counts and the client's p95.
type SweepStep struct {
	Client ClientResult
	Server Counts // the server's count of the step's requests, by status
	Other  Busy   // other processes' CPU during the step
	Holds  bool
	Judged bool   // false: it failed while the host was too busy for that to say anything
	Why    string // why it failed, or why it was not judged
}

// judgeStep decides whether a step held the SLO: the server answered
// (nearly) every request it was sent, at most the error budget of them
// failed by the server's own count (requests it never answered count as
// failed), and the client's p95 from the intended start is within the limit.
func judgeStep(c ClientResult, server Counts, slo SLO) (bool, string) {
	asked := c.Sent + c.Dropped
	if asked == 0 {
		return false, "nothing sent"
	}
	answered := server.Total()
	unanswered := max(0, asked-answered)
	failed := server.Failed() + unanswered
	if share := float64(failed) / float64(asked); share > slo.Errors {
		return false, fmt.Sprintf("errors %.2f%% by the server's count (%d failed or unanswered of %d sent)", 100*share, failed, asked)
	}
	if c.P95 > slo.P95 {
		return false, fmt.Sprintf("p95 %s > %s", c.P95.Round(time.Millisecond/10), slo.P95)
	}
	return true, ""
}

// Sweep is a capacity search by fixed-rate steps: raise by Factor until a
// step fails, then bisect until the gap is at most Precision of the failing
// rate. It knows nothing of how a step is run.
type Sweep struct {
	Start, Factor, Precision float64
	MaxSteps                 int
	Retries                  int  // runs again of a step the host was too busy to judge
	Confirm                  bool // a failing step is run once more, and fails only when that fails too
	Step                     func(ctx context.Context, rate float64) SweepStep
}

// SweepResult is the true capacity and how it was found.
type SweepResult struct {
	Capacity      float64 // the highest rate that held; 0 when none did (a lower bound when Unjudged)
	LowestFailing float64
	Steps         []SweepStep
	Unjudged      string // why the sweep could not say: the host stayed busy; "" when it could
}

// Run searches.
func (s Sweep) Run(ctx context.Context) SweepResult {
	var res SweepResult
	judged := func(r float64) (holds, ok bool) {
		for attempt := 0; attempt <= s.Retries; attempt++ {
			if len(res.Steps) >= s.MaxSteps || ctx.Err() != nil {
				return false, false
			}
			st := s.Step(ctx, r)
			res.Steps = append(res.Steps, st)
			if st.Judged {
				return st.Holds, true
			}
		}
		res.Unjudged = fmt.Sprintf("the host stayed too busy to judge %.4g/s", r)
		return false, false
	}
	// A JVM's single hiccup (a GC, a compilation, a checkpoint) failed one
	// step of a rate that held above and below it: one failure is not a limit.
	try := func(r float64) (holds, ok bool) {
		holds, ok = judged(r)
		if ok && !holds && s.Confirm {
			return judged(r)
		}
		return holds, ok
	}
	pass, fail := 0.0, 0.0
	for r := s.Start; pass == 0 || fail == 0; { // bounded by MaxSteps through try
		holds, ok := try(r)
		if !ok {
			res.Capacity = pass // a lower bound only: Unjudged says why
			return res
		}
		switch {
		case holds:
			pass, r = r, r*s.Factor
		case pass == 0 && r < s.Start/20:
			res.LowestFailing = r // nothing holds even far below the start
			return res
		default:
			fail, r = r, r/s.Factor
		}
	}
	for (fail-pass)/fail > s.Precision {
		mid := (pass + fail) / 2
		holds, ok := try(mid)
		if !ok {
			break
		}
		if holds {
			pass = mid
		} else {
			fail = mid
		}
	}
	res.Capacity, res.LowestFailing = pass, fail
	return res
}

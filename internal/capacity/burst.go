package capacity

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// LatencyStands is why a failure on a busy host stood on its latency in a
// capacity.json of an earlier build, which had no figures in its words
// (Record.Stands, or none); the search now words it with targetOwn.
const LatencyStands = "the mean latency less twice the lag p99 and twice the generator's longest stall is past the latency limit"

// unexplained counts the errors of a step the target answered that no late
// arrival of the generator accounts for, and all it answered. A busy
// generator makes a target fail in one way: a stall releases the arrivals
// due during it at once, and a target that limits its rate or the
// requests it holds refuses the part of the burst past its allowance.
// Each arrival late enough to raise what the target held (explaining) can
// cost one refusal — its own, or that of the arrival on time whose place
// it took — of each of its requests, in its second or the next (a refusal
// is fast, but may end after the second turned). The errors no such
// arrival accounts for are the target's, such as the refusals a limit
// spreads over seconds in which the generator was on time.
func (s *search) unexplained(r StepResult) (own, answered int64) {
	var carried int64
	for _, sec := range r.Seconds {
		late := int64(float64(explaining(r, sec)) * s.cfg.RequestsPerIteration)
		spent := min(sec.Answered, carried+late)
		own += sec.Answered - spent
		answered += sec.Answered
		carried = min(late, carried+late-spent) // what this second's late arrivals left for the next
	}
	return own, answered
}

// explaining is how many of a second's arrivals came late enough to
// explain a refusal each: late by a gap between arrivals or more (they
// came with the next) and by more than the target's service time. The
// arrivals released together after a stall of d were due over its last d,
// and those due within a service time of its end would still have been
// in flight at the target had they come on time: only the ones later than
// that add to what it holds, one each. A wait for a CPU after an iteration
// started holds back the arrivals due meanwhile in the same way.
func explaining(r StepResult, sec Second) int64 {
	least := r.Service
	if r.Rate > 0 {
		least = max(least, time.Duration(float64(time.Second)/r.Rate))
	}
	var n int64
	for _, l := range sec.Late {
		if l.By >= least {
			n += l.N
		}
	}
	if sec.Wait > r.Service {
		n += int64(math.Ceil(r.Rate * (sec.Wait - r.Service).Seconds()))
	}
	return n
}

// ownErrors says how the errors a busy step's target answered are its
// own, past the error budget, or "" (unexplained).
func (s *search) ownErrors(r StepResult) string {
	if r.Requests == 0 || len(r.Seconds) == 0 {
		return ""
	}
	own, answered := s.unexplained(r)
	share := float64(own) / float64(r.Requests)
	if share <= s.cfg.MaxErrorRate {
		return ""
	}
	return fmt.Sprintf("it answered %s of the %s with errors no late arrival of the generator explains (of %s errors it answered; %s, %s)",
		units.Count(own), s.cfg.Unit.Or().Count(r.Requests), units.Count(answered), units.Percent(share), s.budgetWords())
}

// bunched says how a step that failed on its errors alone, on a host its
// limits (busy) let pass, failed on refusals the generator's late
// arrivals account for, or "". Lag under its limit still comes in bursts:
// a 35ms stall at 300/s releases 10 arrivals at once, and a service that
// sheds past a few requests in flight refuses them, while it holds the
// same rate on time. Such a failure is the generator's, as on a busy host,
// and the step is run again. Every error the target did not answer
// (a timeout, a reset) and every answered one no late arrival accounts for
// counts as the target's, and when those alone are past the error budget
// the failure is judged: a target shedding with its arrivals on time is
// bounded where it sheds.
func (s *search) bunched(r StepResult) string {
	if r.Passed || r.Requests == 0 || len(r.Seconds) == 0 || !onErrorsAlone(r.FailedThresholds) {
		return ""
	}
	own, answered := s.unexplained(r)
	explained := answered - own
	failed := int64(math.Round(r.ErrorRate * float64(r.Requests)))
	if explained <= 0 || float64(max(failed-explained, 0))/float64(r.Requests) > s.cfg.MaxErrorRate {
		return ""
	}
	var late int64
	for i, sec := range r.Seconds {
		if sec.Answered > 0 || (i+1 < len(r.Seconds) && r.Seconds[i+1].Answered > 0) { // a refusal may end in the next second
			late += explaining(r, sec)
		}
	}
	return fmt.Sprintf("the generator's late arrivals explain its errors: %s came in seconds with %s, bunched; its lag p99 %s was under the %s limit",
		units.CountOf(explained, "error the target answered", "errors the target answered"), lateWords(r, late),
		units.Duration(r.LagP99), units.Duration(s.cfg.MaxLag))
}

// lateWords writes how many arrivals came late enough to explain a
// refusal, and by how much when the target's service time set it: "282
// late arrivals", "41 arrivals later than its 31.2ms service time".
func lateWords(r StepResult, n int64) string {
	if r.Rate <= 0 || r.Service <= time.Duration(float64(time.Second)/r.Rate) {
		return units.CountOf(n, "late arrival", "late arrivals")
	}
	return units.CountOf(n, "arrival", "arrivals") + " later than its " + units.Duration(r.Service) + " service time"
}

// onErrorsAlone reports whether every threshold a step failed is on its
// errors (http_req_failed, or the search's error budget): its latency
// held, so a failure on latency is never put down to a burst.
func onErrorsAlone(failed []string) bool {
	for _, f := range failed {
		if !strings.HasPrefix(f, "http_req_failed") && !strings.HasPrefix(f, errorBudget) {
			return false
		}
	}
	return len(failed) > 0
}

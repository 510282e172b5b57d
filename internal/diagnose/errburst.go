package diagnose

import "slices"

// A lone second amid the run is a burst of the target's errors when it
// answered at least errBurstMin of its requests with a failure and at least
// errBurstShare of them. Ten: 5 % of a second at 20 req/s is one request,
// no burst, and a service failing 1 request a second on average fails 10
// in one second by chance about once in 10 million seconds (Poisson). 5 %,
// the run share's: at 10,000 req/s ten failures are 0.1 %, the noise of a
// service failing 1 in 1,000. Only the target's answers count (a status, a
// refused connection): timeouts and resets can be loadlens's own lateness
// or the stop's.
const (
	errBurstMin   = 10
	errBurstShare = 0.05
)

// burstSecond reports whether the target answered a second's requests
// with a burst of failures.
func burstSecond(s *clientSecond) bool {
	n := float64(Answered(s.m.Failures))
	return s.x > 0 && n >= errBurstMin && n >= errBurstShare*s.x
}

// errorBurst returns the span of busy (indexes of view) from the first to
// the last whole second that was a burst (burstSecond); false when none
// was. The cut-short last second is errorEdge's: its requests are a sliver.
func errorBurst(view []clientSecond, busy []int, whole int) (span, bool) {
	first, last := -1, -1
	for j, i := range busy {
		if view[i].sec < whole && burstSecond(&view[i]) {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	return span{first, last}, first >= 0
}

// burstTitle words a burst: when, how many of its requests failed and of
// the run's, the two most frequent kinds, and whether failures followed;
// it returns the evidence of what followed, when a second did.
func (e *errorStretch) burstTitle() (after []any) {
	c, b, u := e.c, e.b, e.c.counts()
	first, last := e.view[0].sec, e.view[len(e.view)-1].sec
	all := b.add(c.fig(e.reqsS, StatSum, first, last, UnitCount, u.Many+" in the run"))
	ofRun := b.derive(StatRatio, UnitRate, "share of the run's "+u.Many+" that failed in the burst", e.failed, all)
	title := []any{"A burst of errors at ", e.onset}
	if e.to > e.from {
		title = []any{"Bursts of errors from ", e.onset, " to ", b.second(e.to, StatSecond, "the last second of a burst")}
	}
	title = append(title, ": ", e.failed, " of ", e.reqs, " "+u.Many+" failed (", ofRun, " of the run's ", all, " "+u.Many+")")
	title = append(title, e.kindParts()...)
	if e.to < last {
		n := b.add(c.fig(e.failedS, StatSum, e.to+1, last, UnitCount, u.Many+" failed after the burst"))
		afterReqs := b.add(c.fig(e.reqsS, StatSum, e.to+1, last, UnitCount, u.Many+" after the burst"))
		if b.fig(n).Value == 0 {
			title = append(title, ", then none")
		}
		which := "after the burst: "
		if e.to > e.from {
			which = "after the last burst: "
		}
		after = []any{n, which, n, " of ", afterReqs, c.noun(b, afterReqs, " ", " failed until the run ended")}
	}
	b.title(title...)
	return after
}

// burstRemedies replace KindErrorsAtLoad's remedies for a burst: errors
// that stopped by themselves are an event, not a limit of the load.
var burstRemedies = []string{
	"read the error samples and the target's logs of the burst's second: errors that stopped by themselves are an event at that time, not a limit of the load",
	"check whether the target or something behind it restarted, was deployed, failed over or reloaded its config then",
	"look for a pause at that time: a GC pause, a stop-the-world, a container or VM frozen, a lock a batch or cron job held",
	"check the dependencies then (a database, a cache, a downstream service): a blip of their errors, latency or restarts",
	"look for a retry storm: clients retrying the first failures together, without backoff and jitter, multiply a blip into a burst",
	"re-run: a burst that returns at the same elapsed time points to something on a clock, one that does not to a transient event",
}

// burstFinding is the warning of a burst that stopped by itself: its
// figures, its title, its evidence and the remedies of a transient.
func (e *errorStretch) burstFinding() Finding {
	e.b = newBuilder(KindErrorsAtLoad, Warning)
	e.measure()
	after := e.burstTitle()
	e.evidence()
	if after != nil {
		e.b.evidence(after[0].(ref), after[1:]...)
	}
	e.b.f.Remedies = slices.Clone(burstRemedies)
	if len(e.kinds) > 0 {
		e.b.f.Remedies = append(mostFailures(e.c, e.kinds[0]), e.b.f.Remedies...)
	}
	return e.b.done(e.from, e.to)
}

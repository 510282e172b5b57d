package diagnose

import (
	"slices"
	"sort"

	"github.com/loadlens/loadlens/internal/sample"
)

// Error thresholds: at least 1 % of a second's requests and at least 3 of
// them failed, in two seconds with requests in a row. The minimum count
// keeps a single failure at a low rate from counting as 1 %; two seconds
// keep the burst of cancelled requests when a run stops from counting at
// all. Seconds without requests are skipped, not counted as healthy:
// closed-model VUs that all wait for the same timeout complete nothing for
// seconds and then fail together.
const (
	errShare    = 0.01
	errMin      = 3
	errSeconds  = 2
	errStart    = 2    // crossing within this many seconds of the start: not load-related
	errSameLoad = 0.95 // served this share of the crossing's throughput before: not load-related
	// errSameOffered is errSameLoad of an offered load the engine recorded:
	// exact, so the load served before must be as high (a ramp 5 % a
	// second served the second before a crossing: the load brought it).
	errSameOffered = 1.0
	// errRunShare of the whole run's requests failed is material wherever
	// the failures fell (one second, or a run stopped by them): five times
	// the per-second share, so the stop's burst of a long run stays below it.
	errRunShare = 0.05
)

// failingSecond reports whether a second's failures cross the thresholds.
func failingSecond(s *clientSecond) bool {
	return s.x > 0 && s.failed >= errMin && s.failed >= errShare*s.x
}

// errorsAtLoad finds the second, and the load, from which requests failed,
// with the kinds of failure.
func errorsAtLoad(c *context) []Finding {
	if c.run == nil || c.allFailed() {
		return nil // allFailed speaks for the run
	}
	e, ok := findErrorStretch(c)
	if !ok {
		return nil
	}
	if e.burst {
		return []Finding{e.burstFinding()}
	}
	e.b = newBuilder(KindErrorsAtLoad, Critical)
	e.measure()
	if e.withTime() {
		e.b.f.Remedies = slices.Clone(errorsWithTimeRemedies)
	}
	e.title()
	e.evidence()
	if len(e.kinds) > 0 {
		e.b.f.Remedies = append(mostFailures(c, e.kinds[0]), e.b.f.Remedies...)
	}
	e.lbRefused()
	return []Finding{e.b.done(e.from, e.to)}
}

// mostFailuresLead starts the remedy mostFailures adds, which stays first
// whatever cause the other findings name (errorsFollowCause).
const mostFailuresLead = "most failures are "

// mostFailures is the remedy the most frequent failure kind k adds: a
// session protocol's own first step (a gRPC status, a refused WebSocket
// handshake), or for HTTP's 4xx answers, expect_status.
func mostFailures(c *context, k sample.Kind) []string {
	if fw, own := failureOf(c.run, k); own {
		return []string{mostFailuresLead + fw.what + ": " + fw.remedies[0]}
	}
	if k == sample.HTTP4xx {
		return []string{mostFailuresLead + "4xx answers: if some are expected (a 409 for sold out, a 404 for a missing item), list them in expect_status so they are not counted as failures"}
	}
	return nil
}

// errorStretch is what errorsAtLoad found and the figures it words: the
// seconds with requests (view), the indexes of the busy ones, the failing
// stretch from firstI to lastI (seconds from to to), and the load there.
type errorStretch struct {
	c              *context
	b              *builder
	view           []clientSecond
	busy           []int
	run            span
	firstI, lastI  int
	from, to       int
	kinds          []sample.Kind // failure kinds of the stretch, most first
	kindFigs       []ref
	onset          ref
	failed, reqs   ref // client series' figures over the stretch
	share          ref
	load, sent     []any
	before         ref // the highest throughput before the errors, or -1
	served         int // open model: the earlier second that served the onset's load, or -1
	sameLoad       bool
	burst          bool // a lone second amid the run (errorBurst)
	failedS, reqsS string
}

// findErrorStretch finds the first stretch of failing seconds with
// requests; false when there is none.
func findErrorStretch(c *context) (*errorStretch, bool) {
	// The seconds with requests: the whole ones, then the cut-short end of
	// the run, whose failures count without the requests the stop
	// interrupted (a run stopped by its errors ends in them).
	view := c.all
	for i := range c.all {
		if len(c.secs) > 0 && c.all[i].sec == c.secs[0].sec {
			view = c.all[i:]
			break
		}
	}
	failing := func(i int) bool {
		s := &view[i]
		if s.sec < c.whole {
			return failingSecond(s)
		}
		kept := keptFailures(s)
		return s.x > 0 && kept >= errMin && kept >= errShare*s.x
	}
	busy := make([]int, 0, len(view)) // indexes of the seconds with requests
	for i := range view {
		if view[i].x > 0 {
			busy = append(busy, i)
		}
	}
	run, ok := firstRun(len(busy), errSeconds, func(j int) bool { return failing(busy[j]) })
	if !ok {
		run, ok = c.runErrors(view, busy)
	}
	if !ok {
		run, ok = errorEdge(view, busy)
	}
	burst := false
	if !ok {
		if run, burst = errorBurst(view, busy, c.whole); !burst {
			return nil, false
		}
	}
	if !burst {
		run.first = errorsSince(view, busy, run.first)
	}
	e := &errorStretch{c: c, view: view, busy: busy, run: run, firstI: busy[run.first], lastI: busy[run.last], before: -1, served: -1, burst: burst}
	for j := run.last; j < len(busy) && !burst; j++ { // a burst ends where it stopped: what follows is its "after"
		if failing(busy[j]) {
			e.lastI = busy[j]
		}
	}
	if !burst {
		e.lastI = throughCutEnd(view, e.lastI, c.whole)
	}
	e.from, e.to = view[e.firstI].sec, view[e.lastI].sec
	e.kinds = failureKinds(view, e.firstI, e.lastI)
	return e, true
}

// throughCutEnd extends a stretch ending at view[last] over the run's
// cut-short last second right after it when that second failed as the
// edges do (edgeStretch): its failures are the stretch's, and the totals
// count every failure, though a sliver holds fewer than errMin.
func throughCutEnd(view []clientSecond, last, whole int) int {
	if last+1 >= len(view) {
		return last
	}
	s := &view[last+1]
	kept := keptFailures(s)
	if s.sec < whole || s.sec != view[last].sec+1 || kept == 0 || kept < errShare*s.x {
		return last
	}
	return last + 1
}

// failureKinds returns the kinds that failed from second i to j of view,
// the most frequent first.
func failureKinds(view []clientSecond, i, j int) []sample.Kind {
	var byKind [sample.NumKinds]float64
	for s := i; s <= j; s++ {
		for k := sample.OK + 1; k < sample.NumKinds; k++ {
			byKind[k] += float64(view[s].m.Failures[k])
		}
	}
	var kinds []sample.Kind
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if byKind[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.SliceStable(kinds, func(i, j int) bool { return byKind[kinds[i]] > byKind[kinds[j]] })
	return kinds
}

// measure adds the figures of the onset: its share of failures, its load,
// and the load served before it.
func (e *errorStretch) measure() {
	c, b, from, to := e.c, e.b, e.from, e.to
	u := c.counts()
	e.onset = b.second(from, StatOnset, "the first second with "+u.Many+" in which errors crossed the threshold")
	e.reqsS, e.failedS = c.client(SrcRequests), c.client(SrcFailed)
	e.failed = b.add(c.fig(e.failedS, StatSum, from, to, UnitCount, u.Many+" failed"))
	e.reqs = b.add(c.fig(e.reqsS, StatSum, from, to, UnitCount, u.Many))
	e.share = b.derive(StatRatio, UnitRate, "share of the "+u.Many+" that failed", e.failed, e.reqs)

	atX := ref(-1)
	if from < c.whole { // the run's cut-short last second: its count over a sliver is no rate
		atX = e.loadAt()
	}

	// The highest throughput before the errors, over whole seconds.
	busyBefore := 0
	for _, i := range e.busy[:e.run.first] {
		busyBefore += int(e.view[i].x)
	}
	if busyBefore > 0 {
		e.before = b.add(c.fig(e.reqsS, StatMax, e.view[0].sec, from-1, UnitReqPerSec, "the highest throughput before the errors"))
	}
	if atX < 0 {
		return
	}
	// Served before: the closed model compares throughput; the open model
	// the offered load, which a saturated target's plateau says nothing of.
	e.sameLoad = e.before >= 0 && b.fig(e.before).Value >= errSameLoad*b.fig(atX).Value
	if c.open && !e.atStart() { // errors from the start claim no load served before them
		same := errSameLoad // a load rebuilt from completions wobbles
		if c.scheduled {
			same = errSameOffered
		}
		e.served = servedBefore(e.view, e.busy[:e.run.first], same*b.fig(e.load[0].(ref)).Value)
		e.sameLoad = e.served >= 0
	}
}

// atStart reports whether the errors began with the run: no load came first.
func (e *errorStretch) atStart() bool { return e.from-e.view[0].sec < errStart }

// withTime reports whether the errors began at a load served before without
// them: time, not load, brought them.
func (e *errorStretch) withTime() bool { return !e.atStart() && e.sameLoad }

// loadAt adds the load of the first failing second (e.load, and e.sent
// when its requests were sent before it) and returns its throughput.
func (e *errorStretch) loadAt() ref {
	c, b, from := e.c, e.b, e.from
	atX := b.add(c.fig(e.reqsS, StatValue, from, from, UnitReqPerSec, "throughput in the first failing second"))
	e.load = []any{atX}
	if c.open {
		e.load, e.sent = c.offeredWhenSent(b, &e.view[e.firstI])
	} else if from > c.first {
		n := b.add(c.fig(c.client(SrcVUsAvg), StatValue, from, from, UnitCount, "active VUs over the first failing second"))
		e.load = append(e.load, " with ", n, b.noun(n, " VU", " VUs"))
	}
	return atX
}

// title words the finding: when the errors began, at what load, and the
// two most frequent kinds.
func (e *errorStretch) title() {
	var title []any
	switch {
	case e.load == nil:
		title = []any{"Errors from ", e.onset, ", the run's last second, which its end cut short: ", e.share, " of " + e.c.counts().Many + " failed"}
	case e.atStart():
		title = append([]any{"Errors from the start (", e.onset, ", "}, e.load...)
		title = append(title, "): ", e.share, " of "+e.c.counts().Many+" failed")
	case e.withTime():
		// The same load was served before: time, not load, brought the errors.
		title = append([]any{"Errors from ", e.onset, " at a load served before ("}, e.load...)
		title = append(title, "): ", e.share, " of "+e.c.counts().Many+" failed")
	default:
		title = append([]any{"Errors start at "}, e.load...)
		title = append(title, " (", e.onset, "): ", e.share, " of "+e.c.counts().Many+" failed")
	}
	e.b.title(append(title, e.kindParts()...)...)
}

// kindParts adds the figures of each failure kind's share (e.kindFigs) and
// returns the title's words of the two most frequent.
func (e *errorStretch) kindParts() []any {
	var parts []any
	e.kindFigs = make([]ref, len(e.kinds))
	for i, k := range e.kinds {
		n := e.b.add(e.c.fig(e.c.client(SrcFailed, "kind", k.String()), StatSum, e.from, e.to, UnitCount, k.String()+" failures"))
		e.kindFigs[i] = e.b.derive(StatRatio, UnitFraction, "share of the failures that were "+k.String(), n, e.failed)
		if i < 2 {
			parts = append(parts, ", ", name(k.String()), " ", e.kindFigs[i])
		}
	}
	return parts
}

// evidence lists the first failing second, the seconds before, the second
// that served the same load, and each kind of failure.
func (e *errorStretch) evidence() {
	c, b, from, view, u := e.c, e.b, e.from, e.view, e.c.counts()
	stat := StatValue
	if e.load == nil {
		stat = StatSum // the run ended inside the second: its counts are no per-second figures
	}
	firstFailed := b.add(c.fig(e.failedS, stat, from, from, UnitCount, u.Many+" failed in the first failing second"))
	firstReqs := b.add(c.fig(e.reqsS, stat, from, from, UnitCount, u.Many+" in the first failing second"))
	if e.load == nil {
		b.evidence(firstFailed, "first failing second: ", firstFailed, " of ", firstReqs, c.noun(b, firstReqs, " ", " failed before the run ended in it"))
	} else {
		b.evidence(firstFailed, append(append([]any{"first failing second: ", firstFailed, " of ", firstReqs, c.noun(b, firstReqs, " ", " failed at ")}, e.load...), e.sent...)...)
	}
	if e.before >= 0 {
		bf := b.add(c.fig(e.failedS, StatSum, view[0].sec, from-1, UnitCount, u.Many+" failed before the errors"))
		br := b.add(c.fig(e.reqsS, StatSum, view[0].sec, from-1, UnitCount, u.Many+" before the errors"))
		bs := b.derive(StatRatio, UnitRate, "share of the "+u.Many+" before the errors that failed", bf, br)
		parts := []any{"before ", e.onset, ": ", bs, " of ", br, c.noun(b, br, " ", " failed, at up to "), e.before}
		if c.open {
			ob := b.add(c.fig(c.client(SrcOffered), StatMax, view[0].sec, from-1, UnitReqPerSec, "the most offered in a second before the errors"))
			parts = append(parts, " completed (up to ", ob, " offered)")
		}
		b.evidence(bs, parts...)
	}
	if !e.burst {
		e.isolatedEvidence()
	}
	if e.served >= 0 {
		sec := view[e.served].sec
		so := b.add(c.fig(c.client(SrcOffered), StatValue, sec, sec, UnitReqPerSec, "offered in the second that served the onset's load"))
		sx := b.add(c.fig(e.reqsS, StatValue, sec, sec, UnitReqPerSec, "completed in the second that served the onset's load"))
		b.evidence(so, "the same load was served before: ", so, " offered and ", sx, " completed at ",
			b.second(sec, StatSecond, "the second that served the onset's load"), ", without errors")
	}
	for i, k := range e.kinds {
		n := ref(b.fig(e.kindFigs[i]).Of[0])
		ko := firstSecondOf(view, k, e.firstI, e.lastI)
		b.evidence(n, withSaid(c, k, n, " ", name(k.String()), b.noun(n, " failure (", " failures ("), e.kindFigs[i], " of the failures) from ",
			b.second(ko, StatSecond, "the first second of "+k.String()+" failures"))...)
	}
}

// offeredWhenSent is the open model's load at the first failing second s:
// what the schedule offered in it, or, when every request that ended in it
// was sent in an earlier second, what it offered then. Timeouts end seconds
// after they were sent, after the schedule's end too, where it offered
// nothing. sent says when they were sent, when not in s.
func (c *context) offeredWhenSent(b *builder, s *clientSecond) (load, sent []any) {
	offered := c.client(SrcOffered)
	from, to := s.m.SentFrom, s.m.SentTo
	if to >= s.sec {
		return []any{b.add(c.fig(offered, StatValue, s.sec, s.sec, UnitReqPerSec, "offered in the first failing second")), " offered"}, nil
	}
	sentFrom := b.second(from, StatSecond, "the second the earliest {request} of the first failing second was sent in")
	if from == to {
		f := b.add(c.fig(offered, StatValue, from, from, UnitReqPerSec, "offered in the second the first failing second's {requests} were sent in"))
		return []any{f, " offered"}, []any{" (they were sent at ", sentFrom, ")"}
	}
	f := b.add(c.fig(offered, StatMedian, from, to, UnitReqPerSec, "offered in the seconds the first failing second's {requests} were sent in (median)"))
	return []any{f, " offered"}, []any{" (they were sent from ", sentFrom, " to ",
		b.second(to, StatSecond, "the second the latest {request} of the first failing second was sent in"), ")"}
}

// firstSecondOf returns the first second between two indexes of view with
// a failure of kind k.
func firstSecondOf(view []clientSecond, k sample.Kind, i, j int) int {
	for ; i <= j; i++ {
		if view[i].m.Failures[k] > 0 {
			return view[i].sec
		}
	}
	return view[j].sec
}

// runErrors returns the span of busy (indexes of view) from the first to
// the last second with a failure, when the failures of the whole run,
// those the stop interrupted left out, reach errRunShare of its requests
// and errMin: material though no two seconds in a row crossed the
// per-second threshold (a run its errors stopped after one).
func (c *context) runErrors(view []clientSecond, busy []int) (span, bool) {
	var requests, failed float64
	first, last := -1, -1
	for j, i := range busy {
		s := &view[i]
		kept := keptFailures(s)
		requests += s.x
		failed += kept
		if kept > 0 {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 || failed < errMin || failed < errRunShare*requests {
		return span{}, false
	}
	return span{first, last}, true
}

// errorEdge returns the span of busy (indexes of view) of the seconds in a
// row at the run's start or at its end that each had errShare of their
// requests failed, those the stop interrupted left out, when they hold
// errMin failures the target answered (a status, a refused connection). One
// second is enough there: at the end no second follows to make two; at the
// start a target not yet ready (a pool not open, a cold cache) fails the
// load's first requests. Resets and timeouts need two seconds: the stop
// and a late reader can cause them.
func errorEdge(view []clientSecond, busy []int) (span, bool) {
	if j, ok := edgeStretch(view, busy, 0, 1); ok {
		return span{0, j}, true
	}
	if j, ok := edgeStretch(view, busy, len(busy)-1, -1); ok {
		return span{j, len(busy) - 1}, true
	}
	return span{}, false
}

// edgeStretch walks busy from index i by step while its seconds erred and
// returns the last index that did, when the target answered errMin of
// their failures.
func edgeStretch(view []clientSecond, busy []int, i, step int) (int, bool) {
	answered, last := 0.0, -1
	for ; i >= 0 && i < len(busy); i += step {
		s := &view[busy[i]]
		kept := keptFailures(s)
		if kept == 0 || kept < errShare*s.x {
			break
		}
		for k, n := range s.m.Failures {
			if answeredKind(sample.Kind(k)) {
				answered += float64(n)
			}
		}
		last = i
	}
	return last, last >= 0 && answered >= errMin
}

// errorsSince returns the index of busy the errors began at, given the
// stretch found from first: the first earlier second that crossed the
// thresholds when the errors persisted from it (persistsTo) and from it to
// first errShare and errMin failed (a steady 5 % that crossed errMin only
// now and then), else first. Errors there all along came with neither time
// nor load; stray failures before a real onset (one here, two there) cross
// no second and move nothing, and a failing second the errors stopped
// after is isolated, not their level.
func errorsSince(view []clientSecond, busy []int, first int) int {
	for j := 0; j < first; j++ {
		if !failingSecond(&view[busy[j]]) || !persistsTo(view, busy, j, first) {
			continue
		}
		var failed, requests float64
		for _, i := range busy[j:first] {
			failed += keptFailures(&view[i])
			requests += view[i].x
		}
		if failed >= errShare*requests {
			return j
		}
		return first
	}
	return first
}

// keptFailures is a second's failures less those the stop interrupted.
func keptFailures(s *clientSecond) float64 {
	return s.failed - float64(s.m.Failures[sample.Interrupted])
}

// servedBefore returns the index of view of the last second of idx (the
// seconds with requests before the errors) that was offered at least
// offered req/s and completed as much as it was offered (errSameLoad of
// it) with no failure at all, as its evidence says; -1 for none.
func servedBefore(view []clientSecond, idx []int, offered float64) int {
	for j := len(idx) - 1; j >= 0; j-- {
		s := &view[idx[j]]
		if s.load >= offered && s.x >= errSameLoad*s.load && s.failed == 0 {
			return idx[j]
		}
	}
	return -1
}

package diagnose

import (
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
		kept := s.failed - float64(s.m.Failures[sample.Interrupted])
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
		if run, ok = c.runErrors(view, busy); !ok {
			return nil
		}
	}
	firstI, lastI := busy[run.first], busy[run.last]
	for j := run.last; j < len(busy); j++ {
		if failing(busy[j]) {
			lastI = busy[j]
		}
	}
	first, last := &view[firstI], &view[lastI]
	from, to := first.sec, last.sec

	b := newBuilder(KindErrorsAtLoad, Critical)
	onset := b.second(from, StatOnset, "the first second with requests in which errors crossed the threshold")
	reqs, failed := c.client(SrcRequests), c.client(SrcFailed)
	failedSum := b.add(c.fig(failed, StatSum, from, to, UnitCount, "requests failed"))
	reqSum := b.add(c.fig(reqs, StatSum, from, to, UnitCount, "requests"))
	share := b.derive(StatRatio, UnitRate, "share of the requests that failed", failedSum, reqSum)

	var byKind [sample.NumKinds]float64
	for i := firstI; i <= lastI; i++ {
		for k := sample.OK + 1; k < sample.NumKinds; k++ {
			byKind[k] += float64(view[i].m.Failures[k])
		}
	}
	var kinds []sample.Kind
	for k := sample.OK + 1; k < sample.NumKinds; k++ {
		if byKind[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.SliceStable(kinds, func(i, j int) bool { return byKind[kinds[i]] > byKind[kinds[j]] })

	atX := b.add(c.fig(reqs, StatValue, from, from, UnitReqPerSec, "throughput in the first failing second"))
	load := []any{atX}
	var sent []any // open model: when the first failing second's requests were sent, if not in it
	if c.open {
		load, sent = c.offeredWhenSent(b, first)
	} else if from > c.first {
		n := b.add(c.fig(c.client(SrcVUsAvg), StatValue, from, from, UnitCount, "active VUs over the first failing second"))
		load = append(load, " with ", n, b.noun(n, " VU", " VUs"))
	}

	// The highest throughput before the errors, over whole seconds.
	var before ref = -1
	busyBefore := 0
	for _, i := range busy[:run.first] {
		busyBefore += int(view[i].x)
	}
	if busyBefore > 0 {
		before = b.add(c.fig(reqs, StatMax, view[0].sec, from-1, UnitReqPerSec, "the highest throughput before the errors"))
	}
	// Served before: the closed model compares throughput; the open model
	// the offered load, which a saturated target's plateau says nothing of.
	sameLoad := before >= 0 && b.fig(before).Value >= errSameLoad*b.fig(atX).Value
	served := -1 // open model: the earlier second that served the onset's offered load
	if c.open {
		same := errSameLoad // a load rebuilt from completions wobbles
		if c.scheduled {
			same = errSameOffered
		}
		served = servedBefore(view, busy[:run.first], same*b.fig(load[0].(ref)).Value)
		sameLoad = served >= 0
	}
	var title []any
	switch {
	case from-view[0].sec < errStart:
		title = append([]any{"Errors from the start (", onset, ", "}, load...)
		title = append(title, "): ", share, " of requests failed")
	case sameLoad:
		// The same load was served before: time, not load, brought the errors.
		title = append([]any{"Errors from ", onset, " at a load served before ("}, load...)
		title = append(title, "): ", share, " of requests failed")
	default:
		title = append([]any{"Errors start at "}, load...)
		title = append(title, " (", onset, "): ", share, " of requests failed")
	}
	kindFigs := make([]ref, len(kinds))
	for i, k := range kinds {
		n := b.add(c.fig(c.client(SrcFailed, "kind", k.String()), StatSum, from, to, UnitCount, k.String()+" failures"))
		kindFigs[i] = b.derive(StatRatio, UnitFraction, "share of the failures that were "+k.String(), n, failedSum)
		if i < 2 {
			title = append(title, ", ", name(k.String()), " ", kindFigs[i])
		}
	}
	b.title(title...)

	firstFailed := b.add(c.fig(failed, StatValue, from, from, UnitCount, "requests failed in the first failing second"))
	firstReqs := b.add(c.fig(reqs, StatValue, from, from, UnitCount, "requests in the first failing second"))
	b.evidence(firstFailed, append(append([]any{"first failing second: ", firstFailed, " of ", firstReqs, b.noun(firstReqs, " request failed at ", " requests failed at ")}, load...), sent...)...)
	if before >= 0 {
		bf := b.add(c.fig(failed, StatSum, view[0].sec, from-1, UnitCount, "requests failed before the errors"))
		br := b.add(c.fig(reqs, StatSum, view[0].sec, from-1, UnitCount, "requests before the errors"))
		bs := b.derive(StatRatio, UnitRate, "share of the requests before the errors that failed", bf, br)
		parts := []any{"before ", onset, ": ", bs, " of ", br, b.noun(br, " request failed, at up to ", " requests failed, at up to "), before}
		if c.open {
			ob := b.add(c.fig(c.client(SrcOffered), StatMax, view[0].sec, from-1, UnitReqPerSec, "the most offered in a second before the errors"))
			parts = append(parts, " completed (up to ", ob, " offered)")
		}
		b.evidence(bs, parts...)
	}
	if served >= 0 {
		sec := view[served].sec
		so := b.add(c.fig(c.client(SrcOffered), StatValue, sec, sec, UnitReqPerSec, "offered in the second that served the onset's load"))
		sx := b.add(c.fig(reqs, StatValue, sec, sec, UnitReqPerSec, "completed in the second that served the onset's load"))
		b.evidence(so, "the same load was served before: ", so, " offered and ", sx, " completed at ",
			b.second(sec, StatSecond, "the second that served the onset's load"), ", without errors")
	}
	for i, k := range kinds {
		n := ref(b.fig(kindFigs[i]).Of[0])
		ko := firstSecondOf(view, k, firstI, lastI)
		b.evidence(n, n, " ", name(k.String()), b.noun(n, " failure (", " failures ("), kindFigs[i], " of the failures) from ", b.second(ko, StatSecond, "the first second of "+k.String()+" failures"))
	}
	if len(kinds) > 0 && kinds[0] == sample.HTTP4xx {
		b.f.Remedies = append([]string{"most failures are 4xx answers: if some are expected (a 409 for sold out, a 404 for a missing item), list them in expect_status so they are not counted as failures"}, b.f.Remedies...)
	}
	return []Finding{b.done(from, to)}
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
	sentFrom := b.second(from, StatSecond, "the second the earliest request of the first failing second was sent in")
	if from == to {
		f := b.add(c.fig(offered, StatValue, from, from, UnitReqPerSec, "offered in the second the first failing second's requests were sent in"))
		return []any{f, " offered"}, []any{" (they were sent at ", sentFrom, ")"}
	}
	f := b.add(c.fig(offered, StatMedian, from, to, UnitReqPerSec, "offered in the seconds the first failing second's requests were sent in (median)"))
	return []any{f, " offered"}, []any{" (they were sent from ", sentFrom, " to ",
		b.second(to, StatSecond, "the second the latest request of the first failing second was sent in"), ")"}
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
		kept := s.failed - float64(s.m.Failures[sample.Interrupted])
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

// servedBefore returns the index of view of the last second of idx (the
// seconds with requests before the errors) that was offered at least
// offered req/s and completed as much as it was offered (errSameLoad of
// it) without failing; -1 for none.
func servedBefore(view []clientSecond, idx []int, offered float64) int {
	for j := len(idx) - 1; j >= 0; j-- {
		s := &view[idx[j]]
		if s.load >= offered && s.x >= errSameLoad*s.load && !failingSecond(s) {
			return idx[j]
		}
	}
	return -1
}

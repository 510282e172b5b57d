package engine

import (
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// offers counts an open-model scenario's arrivals by the second of their
// intended start, started or dropped: what its schedule offered, which the
// target's completions are not (a target that stalls then drains completes
// seconds of arrivals in one). The scheduler goroutine owns it, and records
// a second's count once, when the first arrival of a later second comes
// due: before waiting for that one, so a second is recorded as soon as its
// last arrival was handed out, before the collector takes it.
type offers struct {
	sink sample.Sink
	id   int32
	base time.Duration // the scenario's start, an offset from the run's
	sec  int           // the run's second being counted; -1 before the first arrival
	n    int64
}

// newOffers returns the count of the scenario that started at base.
func newOffers(sink sample.Sink, id int32, base time.Duration) *offers {
	return &offers{sink: sink, id: id, base: base, sec: -1}
}

// due readies the count for an arrival due at off, an offset from the
// scenario's start; a later second than the one counted records that one.
func (o *offers) due(off time.Duration) {
	if s := int((o.base + off) / time.Second); s != o.sec {
		o.flush()
		o.sec = s
	}
}

// add counts n arrivals of the second readied.
func (o *offers) add(n int64) { o.n += n }

// flush records the second counted, if any arrival was.
func (o *offers) flush() {
	if o.n > 0 {
		o.sink.Offered(o.id, time.Duration(o.sec)*time.Second, o.n)
	}
	o.n = 0
}

// next is the start of the run's next second, as an offset from the
// scenario's start.
func (o *offers) next() time.Duration { return time.Duration(o.sec+1)*time.Second - o.base }

// miss drops the arrival due at off and every other one due before until
// (offsets from the scenario's start), all of which the schedule offered:
// each is counted offered and dropped in the second of its intended start,
// the arrivals skipped by arithmetic one run second at a time, and
// returns how many were dropped.
func (sc *scenarioRun) miss(s sample.Sink, o *offers, arrivals *plan.Arrivals, off, until time.Duration) int64 {
	o.add(1)
	n := sc.dropped(s, o.base+off, 1)
	for {
		next := o.next()
		k := arrivals.SkipUntil(min(until, next))
		o.add(k)
		n += sc.dropped(s, time.Duration(o.sec)*time.Second, k)
		if until <= next {
			return n
		}
		o.due(next)
	}
}

// Offered returns, for each scenario, the arrivals its schedule offered in
// second sec of the run (0 for a closed model), appended to dst. It is the
// schedule's arithmetic, not the scheduler's count: a scheduler starved of
// CPU records a second's arrivals after the collector took that second,
// and they landed in a later one (trial A38: 0, 244, 0, 450 offered at
// 150/s). Arrivals due after the scenario was stopped are not offered.
func (e *Engine) Offered(sec int, dst []int64) []int64 {
	for _, sc := range e.scens {
		dst = append(dst, sc.offeredIn(sec))
	}
	return dst
}

// offeredIn is Offered for one scenario.
func (sc *scenarioRun) offeredIn(sec int) int64 {
	l := &sc.s.Load
	if l.Model != plan.ArrivalRate {
		return 0
	}
	from, to := time.Duration(sec)*time.Second, time.Duration(sec+1)*time.Second
	if at := sc.schedStop.Load(); at > 0 {
		to = min(to, time.Duration(at-1))
	}
	if to <= from {
		return 0
	}
	seg := sc.e.opts.Segment
	return dueBefore(l, seg, to-sc.s.StartTime) - dueBefore(l, seg, from-sc.s.StartTime)
}

// dueBefore is the segment's arrivals due before offset t of the schedule.
func dueBefore(l *plan.Load, seg plan.Segment, t time.Duration) int64 {
	if t <= 0 {
		return 0
	}
	return plan.NewArrivals(l, seg).SkipUntil(t)
}

// stopSchedule records when the scenario's schedule stopped offering
// arrivals, an offset from the run's start; the first call counts.
func (sc *scenarioRun) stopSchedule(at time.Time) {
	sc.schedStop.CompareAndSwap(0, int64(max(sc.e.since(at), 0))+1)
}

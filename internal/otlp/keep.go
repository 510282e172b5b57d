package otlp

import (
	"time"
	"unsafe"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// Join tells the run's own traces from others': Lookup returns the endpoint
// of the run's request with a trace id. Spans of other traces (another
// service's, another test's, a stranger's) are counted and dropped, and
// never reach the findings.
type Join struct {
	Lookup    func(sample.TraceID) (int32, bool)
	Endpoints int // endpoints of the run: each may keep an equal share of the bytes
}

// pendingAge is how long a span whose trace is not (yet) the run's waits
// for its request to be recorded: a span may arrive before the request
// that caused it has ended (an exporter that sends each span as it ends).
const pendingAge = 10 * time.Second

// waitingShare is the part of the bounds (1/waitingShare) the spans
// waiting to be known may take: a cushion for a race of milliseconds, not
// a second store a flood of strangers' spans could fill.
const waitingShare = 8

// resolveEvery bounds how often a full pending list is checked again, so
// that a flood of strangers' spans costs one pass a second, not one each.
const resolveEvery = time.Second

// spanSize is what a kept span costs besides its strings.
const spanSize = int64(unsafe.Sizeof(spans.Span{}))

// cost is the memory a kept span holds.
func cost(s *spans.Span) int64 {
	return spanSize + int64(len(s.Service)+len(s.Name)+len(s.DBSystem)+len(s.Statement)+len(s.Host))
}

// pending is a span that arrived before its trace was known to be the run's.
type pending struct {
	s  spans.Span
	at time.Time
}

// store is what a receiver keeps, within its bounds: the spans of the
// run's traces (each endpoint within its share of the bytes), and the
// spans that came before their trace was known (within waitingShare of
// the bounds). Its owner's lock guards it.
type store struct {
	maxSpans int
	maxBytes int64
	join     Join // zero: every span is kept, none is judged

	kept         []spans.Span
	keptBytes    int64
	perEndpoint  []int64 // bytes kept per endpoint, with a join
	waiting      []pending
	waitingBytes int64
	traces       map[sample.TraceID]int // spans kept or waiting per trace, for Has
	resolved     time.Time              // when the waiting spans were last checked
	joined       time.Time              // when the run's traces became known (the run began); zero before
	stats        Stats
}

// clockSkew is how far a target's clock may be from loadlens's before a
// span's times are taken to be impossible rather than skewed.
const clockSkew = 10 * time.Minute

// impossible reports whether a span's times cannot be a span of the run's
// requests: an end before its start, a time before 1970 (an overflowing
// unsigned value), and once the run's traces are known (joined), a start
// or end far outside the run or a length beyond the run's so far. Such a
// span would make a request's service time longer than the request. A
// span without times (both unset) has no length and misleads nothing.
func (st *store) impossible(s *spans.Span, now time.Time) bool {
	epoch := time.Unix(0, 0)
	switch {
	case s.Start.Equal(epoch) && s.End.Equal(epoch):
		return false
	case s.End.Before(s.Start) || s.Start.Before(epoch):
		return true
	case st.joined.IsZero():
		return false
	}
	return s.Start.Before(st.joined.Add(-clockSkew)) || s.End.After(now.Add(clockSkew)) ||
		s.End.Sub(s.Start) > now.Sub(st.joined)+time.Second
}

// add keeps the spans of one export, as far as the bounds allow; spans
// with impossible times are counted and dropped.
func (st *store) add(ss []spans.Span, now time.Time) {
	for i := range ss {
		s := &ss[i]
		switch {
		case st.impossible(s, now):
			st.stats.Impossible++
		case st.join.Lookup == nil:
			st.keep(s, -1)
		default:
			if e, ok := st.join.Lookup(s.Trace); ok {
				st.keep(s, e)
			} else {
				st.wait(s, now)
			}
		}
	}
}

// keep keeps s, a span of endpoint e's request (-1: not judged), unless a
// bound is reached: then it is counted as dropped.
func (st *store) keep(s *spans.Span, e int32) {
	c := cost(s)
	own := e >= 0 && int(e) < len(st.perEndpoint)
	if len(st.kept) >= st.maxSpans || st.keptBytes+c > st.maxBytes ||
		(own && st.perEndpoint[e]+c > st.maxBytes/int64(len(st.perEndpoint))) {
		st.stats.Dropped++
		return
	}
	if own {
		st.perEndpoint[e] += c
	}
	st.kept = append(st.kept, *s)
	st.keptBytes += c
	st.traces[s.Trace]++
}

// wait holds s until its trace is known, within waitingShare of the bounds;
// beyond them (after checking the waiting spans again, at most once a
// second) it is counted as foreign.
func (st *store) wait(s *spans.Span, now time.Time) {
	c := cost(s)
	full := func() bool {
		return len(st.waiting) >= st.maxSpans/waitingShare || st.waitingBytes+c > st.maxBytes/waitingShare
	}
	if full() && now.Sub(st.resolved) >= resolveEvery {
		st.resolve(now, false)
	}
	if full() {
		st.stats.Foreign++
		return
	}
	st.waiting = append(st.waiting, pending{*s, now})
	st.waitingBytes += c
	st.traces[s.Trace]++
}

// resolve keeps the waiting spans whose trace is now known to be the run's,
// and counts as foreign those that waited pendingAge (all the others when
// final: the run is over).
func (st *store) resolve(now time.Time, final bool) {
	st.resolved = now
	still := st.waiting[:0]
	st.waitingBytes = 0
	for _, p := range st.waiting {
		st.traces[p.s.Trace]--
		if st.traces[p.s.Trace] <= 0 {
			delete(st.traces, p.s.Trace)
		}
		e, ok := st.join.Lookup(p.s.Trace)
		switch {
		case ok:
			st.keep(&p.s, e)
		case final || now.Sub(p.at) >= pendingAge:
			st.stats.Foreign++
		default:
			still = append(still, p)
			st.waitingBytes += cost(&p.s)
			st.traces[p.s.Trace]++
		}
	}
	clear(st.waiting[len(still):]) // their strings go with them
	st.waiting = still
}

// reset forgets every span and count, and the join.
func (st *store) reset(join Join) {
	*st = store{maxSpans: st.maxSpans, maxBytes: st.maxBytes, join: join, traces: map[sample.TraceID]int{}}
	if join.Lookup != nil {
		st.perEndpoint = make([]int64, max(join.Endpoints, 1))
		st.joined = time.Now()
	}
}

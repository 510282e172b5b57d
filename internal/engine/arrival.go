package engine

import (
	"context"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// runArrivals is the open-model executor. Iterations start at the times the
// schedule computes; each is handed to an idle VU, or to a new one while
// the VU ceiling allows, or else it is dropped and counted. It is never
// shifted in time: a late start is timed from its intended start.
func (sc *scenarioRun) runArrivals(ctx context.Context, start time.Time) {
	l := &sc.s.Load
	seg := sc.e.opts.Segment
	maxVUs := max(seg.Share(l.MaxVUs), 1)
	pre := min(seg.Share(l.PreAllocatedVUs), maxVUs, eagerVUs)
	hard, interrupt := context.WithCancelCause(ctx)
	defer interrupt(nil)

	idle := &idleVUs{}
	var wg sync.WaitGroup
	spawn := func(first time.Time) {
		sc.allocated.Add(1)
		wg.Add(1)
		w := &waiter{work: make(chan time.Time, 1)}
		if !first.IsZero() {
			w.work <- first
		} else if !idle.push(w) {
			return
		}
		go func() {
			defer wg.Done()
			v := sc.newVU()
			defer v.close()
			for at := range w.work {
				if !v.arrive(hard, at) || !idle.push(w) {
					return
				}
			}
		}()
	}
	for range pre { // the rest of preAllocatedVUs when arrivals need them
		spawn(time.Time{})
	}

	drops := sc.e.rec.Sink(0)
	arrivals := plan.NewArrivals(l, seg)
	wake := newAlarm()
	defer wake.close()
	sched, endSched := sc.stoppable(ctx)
	defer endSched()
	for {
		off, ok := arrivals.Next()
		if !ok {
			break
		}
		at := start.Add(off)
		if !wake.wait(sched, at) {
			break
		}
		if w := idle.pop(); w != nil {
			w.work <- at // never blocks: an idle waiter's channel is empty
			continue
		}
		if sc.allocated.Load() < int64(maxVUs) {
			spawn(at)
			continue
		}
		// No VU for this arrival, nor for any other due by now: they are
		// all dropped, counted by arithmetic, so a schedule far ahead of
		// what the VUs can serve (a rate of 1e18/s) costs one step.
		now := time.Now()
		sc.dropped(drops, sc.e.since(now), 1+arrivals.SkipUntil(now.Sub(start)))
	}
	idle.close()
	sc.drain(ctx, &wg, interrupt)
}

// dropped records n iterations that could not start.
func (sc *scenarioRun) dropped(s sample.Sink, at time.Duration, n int64) {
	if dc, ok := s.(sample.DropCounter); ok && n > 1 {
		dc.DroppedN(sc.s.ID, at, n)
		return
	}
	for range min(n, sample.MaxDropCalls) {
		s.Dropped(sc.s.ID, at)
	}
}

// waiter is an open-model VU waiting for its next intended start.
type waiter struct{ work chan time.Time }

// idleVUs is a stack of idle VUs. Handing work to the one that went idle
// last keeps the busy set small and its connections and caches warm: with
// a fast target a handful of VUs serve thousands of arrivals per second,
// where a queue would rotate through every connection.
type idleVUs struct {
	mu     sync.Mutex
	stack  []*waiter
	closed bool
}

// push makes w available; false means the schedule is over and w should stop.
func (s *idleVUs) push(w *waiter) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		close(w.work)
		return false
	}
	s.stack = append(s.stack, w)
	return true
}

// pop takes the VU that went idle last, or nil.
func (s *idleVUs) pop() *waiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.stack)
	if n == 0 {
		return nil
	}
	w := s.stack[n-1]
	s.stack = s.stack[:n-1]
	return w
}

// close ends the schedule: idle VUs stop now, busy ones when they finish.
func (s *idleVUs) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, w := range s.stack {
		close(w.work)
	}
	s.stack = nil
}

// arrive runs one open-model iteration, recording how late it started.
func (v *vu) arrive(ctx context.Context, intended time.Time) bool {
	now := time.Now()
	v.sink.Lag(v.sc.s.ID, v.sc.e.since(now), now.Sub(intended))
	v.sc.active.Add(1)
	defer v.sc.active.Add(-1)
	return v.iterate(ctx, intended)
}

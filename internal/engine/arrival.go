package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// openPool is an open-model scenario's VUs: the idle ones on a stack, the
// goroutines of all of them, and what the pool policy reads.
type openPool struct {
	sc        *scenarioRun
	idle      idleVUs
	wg        sync.WaitGroup
	hard      context.Context // ends the iterations in flight, after the graceful stop
	interrupt context.CancelCauseFunc
	gov       poolGovernor
	cpu       cpuShare
	sched     *schedLatency
	runnable  *runnable

	busySum atomic.Int64 // the start offsets of the iterations in flight, in ns
	done    atomic.Int64 // iterations completed
	doneSum atomic.Int64 // their service times, in ns, from their actual start
}

// prepareArrivals creates the scenario's pre-allocated VUs (at most
// eagerVUs) before the clock starts, until deadline (zero: no deadline).
func (sc *scenarioRun) prepareArrivals(ctx context.Context, deadline time.Time) {
	l := &sc.s.Load
	seg := sc.e.opts.Segment
	maxVUs := int64(max(seg.Share(l.MaxVUs), 1))
	pre := min(int64(seg.Share(l.PreAllocatedVUs)), maxVUs, eagerVUs)
	p := &openPool{sc: sc, gov: poolGovernor{maxVUs: maxVUs, files: vusForFiles(sc.e.files), floor: pre, fds: newFDWatch(sc.e.files)}, sched: newSchedLatency(), runnable: newRunnable()}
	p.hard, p.interrupt = context.WithCancelCause(ctx)
	p.idle.stack = make([]*waiter, 0, pre)
	vus := make([]*vu, 0, pre)
	for i := int64(0); i < pre; i++ {
		if i%vuBatch == 0 && (ctx.Err() != nil || past(deadline)) {
			break // the rest are created when arrivals need them
		}
		vus = append(vus, sc.readyVU())
	}
	for _, v := range vus { // the last pushed is the first taken
		p.spawn(v, time.Time{})
	}
	sc.pool = p
}

// past reports whether a deadline (zero: none) has passed.
func past(deadline time.Time) bool { return !deadline.IsZero() && !time.Now().Before(deadline) }

// spawn starts a goroutine for v: with a first iteration due at first, or
// idle when first is zero.
func (p *openPool) spawn(v *vu, first time.Time) {
	p.sc.allocated.Add(1)
	p.wg.Add(1)
	w := &waiter{work: make(chan time.Time, 1)}
	if !first.IsZero() {
		w.work <- first
	} else if !p.idle.push(w) {
		p.wg.Done()
		v.close()
		return
	}
	go func() {
		defer p.wg.Done()
		defer v.close()
		for at := range w.work {
			if !p.arrive(v, at) || !p.idle.push(w) {
				return
			}
		}
	}()
}

// runArrivals is the open-model executor. Iterations start at the times the
// schedule computes; each is handed to an idle VU, or to a new one while
// the pool policy allows, or else it is dropped and counted. It is never
// shifted in time: a late start is timed from its intended start. The
// schedule ends at its end: arrivals still due then are dropped, so a
// generator far behind overruns the plan by the graceful stop at most.
func (sc *scenarioRun) runArrivals(ctx context.Context, start time.Time) {
	l := &sc.s.Load
	seg := sc.e.opts.Segment
	p := sc.pool
	defer p.interrupt(nil)
	share := segFraction(seg)
	end := start.Add(l.Duration())

	drops := sc.e.rec.Sink(0)
	arrivals := plan.NewArrivals(l, seg)
	wake := newAlarm()
	defer wake.close()
	sched, endSched := sc.stoppable(ctx)
	defer endSched()
	context.AfterFunc(sched, func() { sc.stopSchedule(time.Now()) }) // a stop, when it came, not when a late scheduler saw it; endSched runs it at the latest
	var why dropWhy
	offered := newOffers(drops, sc.s.ID, sc.e.since(start))
	p.cpu.get(time.Now()) // the first windows start with the schedule
	p.sched.quantile(time.Now(), schedEvery, 0.9)
	for {
		off, ok := arrivals.Next()
		if !ok {
			// The last arrival has started: the schedule still lasts to its
			// end, as k6's does, so a run's rate is over its planned length.
			offered.flush()
			wake.wait(sched, end)
			break
		}
		offered.due(off)
		at := start.Add(off)
		if !startAt(sched, wake, at, l.ArrivalSlack) {
			break
		}
		now := time.Now()
		late := max(now.Sub(at), 0) // an arrival started early (startAt) is on time
		behind := p.gov.track(at, late)
		if now.Sub(end) > endSlack(sc.s.GracefulStop) {
			// The schedule is over and this arrival, due before its end,
			// never started: it and every other still due are dropped.
			st := p.state(now, late, behind, 0)
			why.add(heldEnded, st.allocated, st, sc.miss(drops, offered, arrivals, off, l.Duration()))
			break
		}
		if w := p.idle.pop(); w != nil {
			w.work <- at // never blocks: an idle waiter's channel is empty
			offered.add(1)
			continue
		}
		st := p.state(now, late, behind, plan.RateAt(l, off)*share)
		ok, size, reason := p.gov.allow(st)
		if ok {
			p.spawn(sc.newVU(), at)
			offered.add(1)
			continue
		}
		sc.heldAt.Store(size)
		sc.heldBy.Store(uint32(reason))
		// No VU for this arrival, nor for any other due by now: they are
		// all dropped, counted by arithmetic, so a schedule far ahead of
		// what the VUs can serve (a rate of 1e18/s) costs one step.
		why.add(reason, size, st, sc.miss(drops, offered, arrivals, off, now.Sub(start)))
	}
	offered.flush()
	if d, ok := why.say(&p.gov); ok {
		d.Scenario, d.Label = sc.s.ID, sc.label()
		sc.drops.Store(&d)
		sc.e.notify(d.Notice())
	}
	p.idle.close()
	stopped := time.Now() // the graceful stop counts from the plan's end, or from a stop before it
	if stopped.After(end) {
		stopped = end
	}
	sc.drainBy(ctx, &p.wg, p.interrupt, stopped.Add(sc.s.GracefulStop))
}

// startAt waits for an arrival due at at, unless it is due within slack:
// then it starts now, early, with the arrival the scheduler last woke for.
// A wake-up costs more CPU than a request to a fast target (two context
// switches, and one more for the target), so at 5,000/s arrivals 200µs
// apart start in twos and threes instead of one wake-up each; an early
// start is timed from when it started, so no latency is shortened. False
// means ctx ended.
func startAt(ctx context.Context, wake *alarm, at time.Time, slack time.Duration) bool {
	if time.Until(at) > slack {
		return wake.wait(ctx, at)
	}
	return ctx.Err() == nil
}

// endSlack is how long after the schedule's end an arrival due before it
// may still start: a scheduler woken a little late (a busy host) starts
// it, one far behind drops it. It is a part of the graceful stop, which
// bounds the run's overshoot.
func endSlack(grace time.Duration) time.Duration {
	return min(endSlackMax, grace/2)
}

// endSlackMax bounds endSlack.
const endSlackMax = time.Second

// state is what the pool policy reads now.
func (p *openPool) state(now time.Time, late, behind time.Duration, rate float64) poolState {
	used, asked := p.cpu.get(now)
	return poolState{now: p.sc.e.since(now), late: late, behind: behind, rate: rate, cpu: used, asked: asked, sched: p.sched.quantile(now, schedEvery, 0.9),
		runnable:  p.runnable.get(now),
		allocated: p.sc.allocated.Load(), busy: p.sc.active.Load(), busySum: p.busySum.Load(),
		done: p.done.Load(), doneSum: p.doneSum.Load()}
}

// dropped records n iterations that could not start, due at at, and returns n.
func (sc *scenarioRun) dropped(s sample.Sink, at time.Duration, n int64) int64 {
	if n <= 0 {
		return 0
	}
	if dc, ok := s.(sample.DropCounter); ok && n > 1 {
		dc.DroppedN(sc.s.ID, at, n)
		return n
	}
	for range min(n, sample.MaxDropCalls) {
		s.Dropped(sc.s.ID, at)
	}
	return n
}

// dropWhy tallies an open-model scenario's drops by the reason its pool
// was held, for the one notice that says what the generator could not do.
type dropWhy struct {
	n     [heldEnded + 1]int64
	size  [heldEnded + 1]int64     // the size the pool was last held at, by reason
	state [heldEnded + 1]poolState // and what the policy read then
}

func (d *dropWhy) add(r holdReason, size int64, s poolState, n int64) {
	d.n[r] += n
	d.size[r], d.state[r] = size, s
}

// say returns the drops of a scenario that dropped iterations, naming the
// reason that dropped the most (their notice is Notice); false when none
// was dropped.
func (d *dropWhy) say(g *poolGovernor) (sample.Drops, bool) {
	var total int64
	top := heldNot
	for r, n := range d.n {
		total += n
		if n > d.n[top] {
			top = holdReason(r)
		}
	}
	if total == 0 {
		return sample.Drops{}, false
	}
	return sample.Drops{N: total, ByTarget: d.heldByTarget(top), Held: g.explain(top, d.size[top], d.state[top])}, true
}

// heldByTarget reports whether drops held by r came from a pool whose VUs
// all waited for the target (a slow or hanging one), not from a generator
// short of CPU: a bound (max_vus, open files) or the latency rule while
// the scheduler was on time.
func (d *dropWhy) heldByTarget(r holdReason) bool {
	switch r {
	case heldMaxVUs, heldFiles:
		return true
	case heldLatency, heldGrowth:
		return d.state[r].behind < onTimeBehind
	}
	return false
}

// onTimeBehind is how far behind its schedule the scheduler may be and
// still count as keeping up.
const onTimeBehind = 100 * time.Millisecond

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

// arrive runs one open-model iteration, recording how late it started and,
// for the pool policy, how long it kept its VU.
func (p *openPool) arrive(v *vu, intended time.Time) bool {
	now := time.Now()
	if intended.After(now) {
		intended = now // started early with the arrival before it (startAt): timed from now
	}
	at := v.sc.e.since(now)
	v.sink.Lag(v.sc.s.ID, at, now.Sub(intended))
	p.busySum.Add(int64(at))
	v.sc.begin()
	ok := v.iterate(p.hard, intended)
	v.sc.active.Add(-1)
	p.busySum.Add(-int64(at))
	p.doneSum.Add(int64(v.sc.e.since(time.Now()) - at))
	p.done.Add(1)
	return ok
}

// segFraction is the share of the test's arrivals a segment runs.
func segFraction(s plan.Segment) float64 {
	if s.End.Den == 0 || s.Start.Den == 0 {
		return 1
	}
	return float64(s.End.Num)/float64(s.End.Den) - float64(s.Start.Num)/float64(s.Start.Den)
}

package engine

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// closedVU is a running VU of the closed model in its slot. A VU whose flow
// ends in a think time waits for it parked: its goroutine ends, and a timer
// starts a new one when the think time is over. At 10,000 VUs with 1 s of
// think, nearly all of them wait at any moment, and a goroutine waiting
// kept the stack its request grew (4 KiB, 8 with a dial, shrunk only by a
// collection, which such a run has none of after its start): 40–50 MB.
// The cost is a goroutine start and a stack growth per iteration, not per
// request: a flow without a final think keeps its goroutine.
type closedVU struct {
	r      *closedRun
	v      *vu
	idx    int
	ctx    context.Context // ends when the VU is ramped down or interrupted
	cancel context.CancelCauseFunc
	timer  *time.Timer // runs resume when a park ends
	// parked is 1 while the VU waits for its timer; whoever swaps it to 0
	// (the timer, or wake when the context ended) runs the VU on.
	parked atomic.Int32
	// thinking says the park is the flow's last think time, whose
	// iteration (walked in w) ends when the park does; not the wait for
	// the VU's first start.
	thinking bool
	due      time.Time // when the park ends: the last think's end, or the first start
	nextTurn *closedVU // the next VU waiting in the send turnstile (sendTurns)
	inTurns  bool      // listed in the send turnstile; under its lock
	w        walk
}

// startVU starts VU v in slot idx at first (now when zero); the caller
// holds slots.mu.
func (r *closedRun) startVU(v *vu, idx int, first time.Time) {
	vctx, cancel := context.WithCancelCause(r.hard)
	c := &closedVU{r: r, v: v, idx: idx, ctx: vctx, cancel: cancel, due: first}
	if first.IsZero() { // at once: late only by what its timer's goroutine waits
		c.due = time.Now()
	}
	r.slots.alive[idx], r.slots.vus[idx] = true, c
	c.timer = time.AfterFunc(never, c.resume) // set before it can fire: resume reads it
	c.parked.Store(1)
	c.timer.Reset(max(time.Until(first), 0)) // and at once: a new goroutine
}

// never is a timer's duration that does not end during a run.
const never = 1 << 62

// resume runs the VU on when its timer fires, unless wake already did; a
// VU that woke late waits for its turn to send (sendTurns).
func (c *closedVU) resume() {
	if !c.parked.CompareAndSwap(1, 0) {
		return
	}
	var now time.Time
	if c.thinking {
		now = c.v.endIteration(&c.w)
	} else if !c.r.gate.enter(c) { // its first start: queued parked while the gate is full
		return
	} else if c.r.turns != nil {
		now = time.Now()
	}
	if c.r.turns.wait(c, c.due, now) {
		return
	}
	c.run()
}

// wake runs a parked VU on at once, its think time cut short (no iteration
// recorded, as a think time interrupted), after its context ended; it
// reports whether the VU was parked.
func (c *closedVU) wake() bool {
	if !c.parked.CompareAndSwap(1, 0) {
		return false
	}
	c.timer.Stop()
	go c.run()
	return true
}

// interrupt wakes the VU, or ends its request in flight, after its
// context ended: its lean client watches no context (h1Trip.external).
func (c *closedVU) interrupt() {
	if !c.wake() {
		if t := c.v.trip.Load(); t != nil {
			t.abort()
		}
	}
}

// run runs iterations until the VU stops (its slot above the target, its
// context ended, the scenario stopped) or parks.
func (c *closedVU) run() {
	r := c.r
	for {
		if !r.keep(c) {
			c.v.leaveGate()
			c.v.returnHTTP()
			c.v.close()
			r.sc.active.Add(-1)
			c.cancel(nil)
			r.wg.Done()
			return
		}
		c.w = walk{parks: r.parks}
		ok := c.v.walkFlow(c.ctx, &c.w)
		c.v.leaveGate() // a flow without a request ends its admission here
		if !ok {
			continue // the check above says why
		}
		if c.w.park == 0 {
			c.v.endIteration(&c.w)
			continue
		}
		c.v.returnHTTP() // lent again when the VU runs on
		if c.park(c.w.park) {
			return
		}
	}
}

// park waits for d without the goroutine, which returns when park reports
// true; false means the context ended meanwhile (the iteration is dropped,
// as a think time interrupted is).
func (c *closedVU) park(d time.Duration) bool {
	c.thinking, c.due = true, time.Now().Add(d)
	c.parked.Store(1)
	c.timer.Reset(d)
	if c.ctx.Err() != nil && c.parked.CompareAndSwap(1, 0) { // a wake before the Reset saw nothing parked
		c.timer.Stop()
		return false
	}
	// Stored parked, then read ending and the target: endThinking and
	// retarget store the other way round, so one of the two sees the other
	// and ends the think.
	if (c.r.ending.Load() || c.removed()) && c.parked.CompareAndSwap(1, 0) {
		c.timer.Stop()
		c.endThink()
		return false // and keep, which reads the target below the slot, ends the VU
	}
	return true
}

// removed reports whether a ramp-down put the VU's slot above the target.
// The end's target 0 is none (endThinking ends those VUs, or a cancel's
// wake, recording nothing): runVUs stores over before it, and this reads
// over after the target, so seeing that 0 it sees over.
func (c *closedVU) removed() bool {
	return int64(c.idx) >= c.r.slots.targetA.Load() && !c.r.over.Load()
}

// leave ends a parked VU at once: in its flow's last think, whose
// iteration is complete (all it would still do is wait), or waiting for its
// first start. keep, on the goroutine started here (not under the lock
// keep takes, which the caller holds), frees its slot when its slot is
// above the target. It reports whether the VU was parked.
func (c *closedVU) leave() bool {
	if !c.parked.CompareAndSwap(1, 0) {
		return false
	}
	c.timer.Stop()
	if c.thinking {
		c.endThink()
	}
	go c.run()
	return true
}

// endThinking ends, when the scenario's duration ended, the VUs parked in
// their flow's last think time: all they would still do is wait, so their
// iterations are complete (recorded now, not interrupted), and waiting the
// graceful stop for them only stretched the run with a tail that sent
// nothing, which the rates then divided by (a closed model with 20 s of
// think read 164/s where its target got 243/s). A VU waiting for its first
// start ends too; one in a think with requests after it keeps the graceful
// stop, as in k6.
func (r *closedRun) endThinking() {
	r.ending.Store(true)
	r.slots.mu.Lock()
	defer r.slots.mu.Unlock()
	for _, c := range r.slots.vus {
		if c != nil {
			c.leave()
		}
	}
}

// keep reports whether the VU runs another iteration; when not, its slot
// is freed.
func (r *closedRun) keep(c *closedVU) bool {
	slots, sc := &r.slots, r.sc
	if int64(c.idx) < slots.targetA.Load() && c.ctx.Err() == nil && !sc.isStopped() {
		return true
	}
	slots.mu.Lock()
	defer slots.mu.Unlock()
	if c.idx < slots.target && c.ctx.Err() == nil && !sc.isStopped() {
		return true
	}
	slots.alive[c.idx] = false
	if slots.vus[c.idx] == c {
		slots.vus[c.idx] = nil
	}
	return false
}

// interruptAll interrupts every VU, when their parent context ended.
func (r *closedRun) interruptAll() {
	r.slots.mu.Lock()
	defer r.slots.mu.Unlock()
	cause := context.Cause(r.hard)
	for _, c := range r.slots.vus {
		if c == nil {
			continue
		}
		// This runs from an AfterFunc on hard, perhaps before the context
		// package reached c.ctx: cancelled first, the aborted request reads
		// as interrupted, not as a failure.
		c.cancel(cause)
		if !c.wake() {
			if t := c.v.trip.Load(); t != nil {
				go t.abort() // which waits for the request to notice
			}
		}
	}
}

// endThink records the iteration of a VU whose last think the scenario's
// end cut short, with the think it drew (its duration is the user's plan,
// not the target's, and a shorter one would read as a faster iteration);
// a run cancelled or interrupted meanwhile records none, as a wake.
func (c *closedVU) endThink() {
	if c.ctx.Err() != nil {
		return
	}
	c.w.cut = max(time.Until(c.due), 0)
	c.v.endIteration(&c.w)
}

// parksAtEnd reports whether flow ends in a think time, which its VUs can
// wait for parked.
func parksAtEnd(flow []plan.Step) bool {
	return len(flow) > 0 && flow[len(flow)-1].Kind == plan.ThinkStep
}

// parks reports whether the scenario's VUs park in their think time: a
// closed model whose flow ends in one.
func (sc *scenarioRun) parks() bool {
	return sc.s.Load.Model == plan.VUs && parksAtEnd(sc.s.Flow)
}

package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// vuSlots tracks which VU slots of a closed-model scenario are running, so a
// ramp can start the missing ones and a ramp-down lets the extra ones finish.
type vuSlots struct {
	mu      sync.Mutex
	target  int
	targetA atomic.Int64 // target, readable without the lock on every iteration
	scan    int          // slots below scan are known to be alive
	alive   []bool
	vus     []*closedVU // the VU in each slot, nil when it left
	// the last jump of the VU count: slots from..to-1 joined at since
	from, to int
	since    time.Time
}

// runVUs is the closed-model executor: VU i loops over the flow while i is
// below the stage's target, so throughput is whatever the target allows.
func (sc *scenarioRun) runVUs(ctx context.Context, start time.Time) {
	l := &sc.s.Load
	seg := sc.e.opts.Segment
	end := start.Add(l.Duration())
	hard, interrupt := context.WithCancelCause(ctx)
	defer interrupt(nil)
	r := &closedRun{sc: sc, hard: hard, spread: spreadInterval(sc.s.Flow), parks: sc.parks(),
		gate: startGate{limit: sc.e.startGate, grace: sc.e.startGateGrace}}
	r.turns = newSendTurns(r.parks)
	defer r.turns.close() // after drain: every VU has ended
	defer context.AfterFunc(hard, r.interruptAll)()
	at, jump := time.Duration(0), true
	for {
		down := l.GracefulRampDown
		if at >= l.Duration() && down == 0 {
			down = -1 // the schedule's end, not a ramp-down: the graceful stop waits for its VUs
		}
		r.retarget(seg.Share(plan.VUsAt(l, at)), down, jump)
		for sc.creating(ctx, end) && r.grow() {
		}
		next, ok := plan.NextVUChange(l, at)
		if !ok {
			break
		}
		if !sc.sleepUntil(ctx, start.Add(next)) {
			break
		}
		jump = plan.VUsAt(l, next)-plan.VUsAt(l, next-1) > 1
		at = max(next, time.Since(start))
	}
	r.over.Store(true)
	r.slots.mu.Lock()
	r.setTarget(0, false) // not retarget: the end leaves its parked VUs to endThinking, a cancel to its wake
	r.slots.mu.Unlock()
	// Only when the duration ended: on a cancel the VUs' contexts may not
	// have ended yet here, and interruptAll wakes them, recording nothing.
	if ctx.Err() == nil {
		r.endThinking()
	}
	sc.closeSpare()
	sc.drain(ctx, &r.wg, interrupt)
}

// closedRun is one closed-model scenario's VUs while it runs: their slots,
// the group that waits for them, and the context a ramp-down interrupts.
type closedRun struct {
	sc     *scenarioRun
	slots  vuSlots
	wg     sync.WaitGroup
	hard   context.Context // the VUs' parent: interrupted after the graceful stop
	spread time.Duration   // spreadInterval of the flow
	parks  bool            // its VUs park in the flow's last think time
	// ending is set when the duration ended: a VU parks in its last think
	// no longer, as that think sends nothing (endThinking).
	ending atomic.Bool
	gate   startGate  // admits its VUs to their first request
	turns  *sendTurns // starts its late VUs between polls of the network; nil: at once
	// over is set when the schedule ended, before its target 0, which is
	// not a ramp-down: a VU parking then is left to endThinking or a wake.
	over atomic.Bool
}

// retarget sets the VU count. A VU at n and above that is parked leaves
// at once: in its flow's last think time, where all it would still do is
// wait (its iteration recorded complete, as at the scenario's end), or
// waiting for its first start. The others stop after their iteration, or
// are interrupted after the graceful ramp-down (at once when it is 0;
// never when it is negative: the schedule's end, where the graceful stop waits).
func (r *closedRun) retarget(n int, rampDown time.Duration, jump bool) {
	slots := &r.slots
	slots.mu.Lock()
	defer slots.mu.Unlock()
	old := r.setTarget(n, jump)
	for idx := n; idx < old && idx < len(slots.vus); idx++ {
		c := slots.vus[idx]
		if c == nil || c.leave() || rampDown < 0 { // park reads the target for a VU that parks after this
			continue
		}
		// A zero graceful ramp-down interrupts at once, as k6's; the timer
		// still runs outside slots.mu and rechecks the target.
		time.AfterFunc(rampDown, func() {
			if int64(idx) >= slots.targetA.Load() {
				c.cancel(errRampedDown) // a newer VU in this slot is another closedVU
				c.interrupt()
			}
		})
	}
}

// setTarget sets the VU count and returns the one before; the caller holds
// slots.mu. VUs above it stop after their iteration.
func (r *closedRun) setTarget(n int, jump bool) (old int) {
	slots := &r.slots
	old = slots.target
	if jump && n > old+1 && r.spread > 0 { // not a ramp, which spreads its VUs already
		slots.from, slots.to, slots.since = old, n, time.Now()
	}
	slots.target = n
	slots.targetA.Store(int64(n))
	slots.scan = min(slots.scan, n)
	return old
}

// grow starts at most vuBatch of the missing VUs below the target; it
// reports whether some may still be missing.
func (r *closedRun) grow() bool {
	sc, slots := r.sc, &r.slots
	slots.mu.Lock()
	defer slots.mu.Unlock()
	for started := 0; slots.scan < slots.target; slots.scan++ {
		idx := slots.scan
		if idx == len(slots.alive) {
			slots.alive = append(slots.alive, false)
			slots.vus = append(slots.vus, nil)
		}
		if slots.alive[idx] {
			continue
		}
		if started == vuBatch {
			return true
		}
		started++
		sc.begin()
		sc.allocated.Store(max(sc.allocated.Load(), sc.active.Load()))
		r.wg.Add(1)
		r.startVU(sc.takeVU(), idx, slots.firstStart(idx, r.spread))
	}
	return false
}

// spreadInterval is the interval over which VUs that join at once start:
// the flow's mean think time per iteration. VUs that all start together
// stay in step, each interval beginning with a burst the generator itself
// queues; started over one interval, they arrive as a user population
// does. A flow without think time needs no spread: its VUs fall out of
// step with the first responses.
func spreadInterval(flow []plan.Step) time.Duration {
	var z time.Duration
	for _, st := range flow {
		if st.Kind == plan.ThinkStep {
			z += (st.ThinkMin + st.ThinkMax) / 2
		}
	}
	return z
}

// firstStart returns when the VU in slot idx starts its first iteration:
// its place in the last jump of the VU count, spread over the interval,
// or zero (now) for a VU a ramp added. The caller holds the lock.
func (s *vuSlots) firstStart(idx int, spread time.Duration) time.Time {
	if idx < s.from || idx >= s.to || s.to-s.from < 2 {
		return time.Time{}
	}
	return s.since.Add(time.Duration(float64(spread) * float64(idx-s.from) / float64(s.to-s.from)))
}

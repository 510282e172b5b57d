package engine

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// sendTurns lets closed-model VUs whose think time ended late take turns
// with the responses that came in meanwhile. Go's scheduler polls the
// network only when it has no runnable goroutine: while thousands of VUs
// are due at once, every one of them sends before any response is read,
// so each response waits for all those sends (up to 9,100 goroutines were
// runnable at once in traces of 10,000 VUs), the VUs end their iterations
// together and, their think times being equal, start the next ones
// together again: a clump that grows each think time by the VUs due while
// it is served
// (docs/generator.md, *Many VUs in step*). A late VU instead waits here,
// parked, and the turnstile starts turnBatch of them after each time the
// runtime polled the network, so the responses that came in go first.
type sendTurns struct {
	mu         sync.Mutex
	head, tail *closedVU    // waiting, first in first out (closedVU.nextTurn)
	running    bool         // a loop goroutine serves the queue
	listed     atomic.Int32 // VUs listed: read without the lock on every iteration
	poll       *pollRound
	start      func(*closedVU) // runs a VU whose turn came; nil: go c.run() (tests set it)
}

// turnLate is how late a VU's start must be to wait its turn: above the
// up-to-1-ms lateness of a timer on an idle process (the runtime's network
// poller sleeps in whole milliseconds), so a generator that keeps up never
// queues, and a VU queues only when others are ahead of it in the CPU's
// queue, which 1 ms of sends (60–70 of them) means.
const turnLate = time.Millisecond

// turnBatch is how many waiting VUs start between two polls of the
// network: a response waits for at most that many sends (about 15 µs of
// CPU each) beside the other responses ready with it. It is fixed: a poll
// that comes late comes after the CPU read responses or did other work,
// and more sends then would only queue (a batch grown with the wait sent
// 1,024 at once on a starved host, the clump again).
const turnBatch = 8

// newSendTurns returns the turnstile of a closed-model scenario whose VUs
// park (on); nil (VUs start at once, as before) when they do not, or where
// the platform has no pollable event to wait for a poll with.
func newSendTurns(on bool) *sendTurns {
	if !on {
		return nil
	}
	p := newPollRound()
	if p == nil {
		return nil
	}
	return &sendTurns{poll: p}
}

// wait queues c, whose start was due at due, when it is late or others
// wait already; it reports whether the caller (the timer's goroutine,
// after swapping parked to 0) leaves c to the turnstile.
func (t *sendTurns) wait(c *closedVU, due, now time.Time) bool {
	if t == nil {
		return false
	}
	late := now.Sub(due) >= turnLate
	if !late && t.listed.Load() == 0 {
		return false
	}
	t.mu.Lock()
	if !late && t.head == nil {
		t.mu.Unlock()
		return false
	}
	c.thinking = false // its iteration is recorded: a leave must not record it again
	c.parked.Store(1)  // parked again: a wake or leave runs it at once, as from its timer
	if !c.inTurns {    // else still listed from a wait a wake cut short: it keeps its place
		c.inTurns = true
		t.listed.Add(1)
		if t.tail == nil {
			t.head = c
		} else {
			t.tail.nextTurn = c
		}
		t.tail = c
	}
	start := !t.running
	t.running = true
	t.mu.Unlock()
	if start {
		go t.loop()
	}
	// A wake between resume's swap and the Store above saw nothing parked;
	// the turnstile skips c, whose parked the swap here sets to 0.
	return c.ctx.Err() == nil || !c.parked.CompareAndSwap(1, 0)
}

// loop starts the waiting VUs, turnBatch after each poll of the network,
// until none waits.
func (t *sendTurns) loop() {
	for {
		n := turnBatch
		if !t.poll.round() {
			n = math.MaxInt // closed: every VU runs now
		}
		t.mu.Lock()
		first := t.take(n)
		done := t.head == nil
		if done {
			t.running = false
		}
		t.mu.Unlock()
		for first != nil {
			c := first
			first, c.nextTurn = c.nextTurn, nil
			t.run(c)
		}
		if done {
			return
		}
	}
}

// take unlinks up to n waiting VUs that are still parked (a woken one runs
// already) and returns them linked; the caller holds t.mu.
func (t *sendTurns) take(n int) (first *closedVU) {
	var last *closedVU
	for k := 0; k < n && t.head != nil; {
		c := t.head
		t.head, c.nextTurn, c.inTurns = c.nextTurn, nil, false
		t.listed.Add(-1)
		if t.head == nil {
			t.tail = nil
		}
		if !c.parked.CompareAndSwap(1, 0) {
			continue
		}
		if last == nil {
			first = c
		} else {
			last.nextTurn = c
		}
		last = c
		k++
	}
	return first
}

// run runs a VU whose turn came on a goroutine of its own.
func (t *sendTurns) run(c *closedVU) {
	if t.start != nil {
		t.start(c)
		return
	}
	go c.run()
}

// close releases the turnstile's event once its scenario's VUs ended.
func (t *sendTurns) close() {
	if t != nil {
		t.poll.close()
	}
}

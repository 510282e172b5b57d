package engine

import (
	"cmp"
	"sync"
	"time"
)

// startGateSize is how many closed-model VUs may be sending their first
// request at once (dialling, handshaking, writing); the others wait for
// their start parked, in order. On a generator that cannot keep up with
// its VUs' starts, thousands of them were runnable at once, each with the
// goroutine and the 8 KiB of stack its dial grows: 80 MB at 10,000 VUs,
// kept as the process's peak and as heap pages the runtime did not return
// (docs/generator.md, *The start gate*). A closed-model iteration is timed
// from its first step, so a VU that waits here measures nothing longer.
// The size admits 1,024 first requests at once.
const startGateSize = 1024

// startDialGrace is how long a VU admitted by the start gate may wait for
// its peer (to answer its dial, or its TLS Client Hello: connectWatch)
// before it leaves the gate. A dial on a LAN or loopback takes well under
// a millisecond, one over the internet a round trip (under 300 ms), and a
// VU whose connect completed waits for a CPU behind the gate's other VUs
// for their first requests' CPU (tens of ms on one core); a dial longer
// than that waits in the network poller, not for a CPU: its SYN
// unanswered (a full accept queue, a black-holed address; the first retry
// is 1 s later) until the connect timeout, 30 s by default. 1,024 such
// dials held back every VU behind them, to healthy targets too.
const startDialGrace = 250 * time.Millisecond

// startGate admits closed-model VUs to their first request. A VU leaves it
// when that request has been written (its client's written hook): waiting
// for the response it is parked in the network poller, not runnable, and
// a slow target must see every VU's request, not 1,024 per response time.
// It leaves earlier when its flow first waits for something else (a think
// time, a session step, which may last the run) or its connection has
// waited the grace for its peer (a dial or TLS handshake that hangs waits
// in the poller too: connectWatch), and at the latest when
// the request ends (a failed dial is never written) or the flow ends
// without one.
type startGate struct {
	mu    sync.Mutex
	n     int           // VUs admitted and not yet through their first request
	limit int           // 0: startGateSize; smaller in tests
	grace time.Duration // 0: startDialGrace; other in tests
	queue []*closedVU   // parked, waiting to be admitted, first in first out
}

// enter admits c, or queues it parked; it reports whether the caller (the
// timer's goroutine, after swapping parked to 0) runs c now: admitted
// (c.v.gate set), or woken while it was being queued.
func (g *startGate) enter(c *closedVU) bool {
	g.mu.Lock()
	if g.n < cmp.Or(g.limit, startGateSize) {
		g.n++
		g.mu.Unlock()
		c.v.gate.Store(g)
		return true
	}
	c.parked.Store(1)
	g.queue = append(g.queue, c)
	g.mu.Unlock()
	// A wake between resume's swap and the Store above saw nothing parked;
	// the queue skips c, whose parked the swap here sets to 0.
	return c.ctx.Err() != nil && c.parked.CompareAndSwap(1, 0)
}

// leave ends a VU's admission: the next queued VU that is still parked is
// admitted and run on a goroutine of its own.
func (g *startGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for len(g.queue) > 0 {
		c := g.queue[0]
		g.queue[0] = nil
		g.queue = g.queue[1:]
		if c.parked.CompareAndSwap(1, 0) { // else woken: it runs already
			c.v.gate.Store(g)
			go c.run()
			return
		}
	}
	g.queue = nil // its backing array, up to one pointer a VU, is freed
	g.n--
}

// leaveGate ends v's admission to its first request, if it has one. It
// runs on the VU's goroutine and on net/http's (its written hook); the swap
// makes the first caller the only one to leave.
func (v *vu) leaveGate() {
	if v.gate.Load() == nil { // every request after the first: a plain read
		return
	}
	if g := v.gate.Swap(nil); g != nil {
		g.leave()
	}
}

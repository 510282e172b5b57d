// Package abort is what the lean clients (h1, h2) share to end a VU's
// request at once from another goroutine: a flag every later request
// sees, the cancel of a dial in progress, and the connection in use,
// whose past deadline unblocks its read or write.
package abort

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Guard is a client's abort state; C is its connection type, *C what
// Abort unblocks. The zero value is ready. Its mutex also guards the
// client's connections against Close from another goroutine.
type Guard[C any, P interface {
	*C
	Unblock()
}] struct {
	sync.Mutex
	dialCancel context.CancelFunc // cancels a dial in progress
	active     atomic.Pointer[C]  // the connection in use
	aborted    atomic.Bool
}

// Abort sets the flag, cancels a dial in progress and unblocks the
// connection in use. It may be called from any goroutine.
func (g *Guard[C, P]) Abort() {
	g.aborted.Store(true)
	g.Lock()
	if g.dialCancel != nil {
		g.dialCancel() // a dial to a silent host would otherwise last its whole timeout
	}
	g.Unlock()
	if cn := g.active.Load(); cn != nil {
		P(cn).Unblock()
	}
}

// Aborted reports whether Abort was called.
func (g *Guard[C, P]) Aborted() bool { return g.aborted.Load() }

// Flag is the abort flag itself, for a connection that checks it.
func (g *Guard[C, P]) Flag() *atomic.Bool { return &g.aborted }

// Use publishes cn as the connection in use (nil: none). The caller sets
// cn's deadline first, so that Abort's past one is never overwritten, and
// checks Aborted after, so that Abort sees cn or the caller the flag.
func (g *Guard[C, P]) Use(cn *C) { g.active.Store(cn) }

// Dial returns the context of a dial ending at deadline (zero: none),
// published for Abort, and its cancel; the caller defers EndDial(cancel).
// ok is false, the dial not to be made, when Abort came first.
func (g *Guard[C, P]) Dial(deadline time.Time) (ctx context.Context, cancel context.CancelFunc, ok bool) {
	if deadline.IsZero() {
		ctx, cancel = context.WithCancel(context.Background())
	} else {
		ctx, cancel = context.WithDeadline(context.Background(), deadline)
	}
	g.Lock()
	g.dialCancel = cancel
	g.Unlock()
	return ctx, cancel, !g.aborted.Load() // after publishing cancel, so Abort sees the dial or the caller the flag
}

// EndDial cancels the dial's context and unpublishes it.
func (g *Guard[C, P]) EndDial(cancel context.CancelFunc) {
	cancel()
	g.Lock()
	g.dialCancel = nil
	g.Unlock()
}

// Dialing reports whether a dial is in progress.
func (g *Guard[C, P]) Dialing() bool {
	g.Lock()
	defer g.Unlock()
	return g.dialCancel != nil
}

// InUse reports whether a connection is in use.
func (g *Guard[C, P]) InUse() bool { return g.active.Load() != nil }

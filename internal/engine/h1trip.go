package engine

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/engine/h2"
)

// h1Trip is a VU's lean clients: HTTP/1.1 for http:// and https:// hops,
// and HTTP/2 for the https:// hops of a scenario with http2: true (h2Lean).
type h1Trip struct {
	client *h1.Client
	h2     *h2.Client // made with the trip when the scenario asks for HTTP/2, so abort needs no lock
	noH2   bool       // the server chose http/1.1 over ALPN: the VU's HTTP/2 hops go through net/http
	ctx    context.Context
	stop   func() bool // unregisters the abort hook
	busy   atomic.Bool // inside Do, for the abort hook
	// external: the VU's runner calls abort when its context ends
	// (closedVU.interrupt), so no hook is registered on the context: a
	// context.AfterFunc per VU was 540 B (its context, the parent's Done
	// channel and child map).
	external bool
	written  func()                // told when a request has been written: the VU's leaveGate
	dialing  func() func(net.Conn) // told as a dial starts: the VU's gateDial
}

// newH1Trip makes a VU's client; parked: the VU parks (closedvu.go), so
// its goroutine may dial and handshake itself, and its runner aborts it.
// written and dialing are the start gate's hooks (nil: none).
// http2 also makes the lean HTTP/2 client.
func newH1Trip(e *Engine, parked, http2 bool, written func(), dialing func() func(net.Conn)) *h1Trip {
	t := &h1Trip{client: h1.New(h1.Config{Dialer: e.dialer, TLS: e.h1TLS, HandshakeTimeout: e.tlsTimeout,
		IdleCloses: &e.idleCloses, Inline: parked}), external: parked, written: written, dialing: dialing}
	if http2 {
		t.h2 = h2.New(h2.Config{Dialer: e.dialer, TLS: e.h1TLS, HandshakeTimeout: e.tlsTimeout, Inline: parked})
	}
	return t
}

func (t *h1Trip) close() {
	if t.stop != nil {
		t.stop()
	}
	t.client.Close()
	if t.h2 != nil {
		t.h2.Close()
	}
}

// abort makes the request in flight return at once. Abort is repeated
// while Do is still running: an Abort that lands between the client's
// abort check and its setting of the request deadline would otherwise be
// overwritten by that deadline, and the request would wait out its timeout.
func (t *h1Trip) abort() {
	for wait := time.Millisecond; ; wait *= 2 {
		t.client.Abort()
		if t.h2 != nil {
			t.h2.Abort()
		}
		if !t.busy.Load() || wait > time.Second {
			return
		}
		time.Sleep(wait)
	}
}

func (t *h1Trip) roundTrip(ctx context.Context, q *hop, res *hopResult, rs *response) error {
	return t.do(ctx, q, res, rs, false)
}

// do sends a hop with the lean HTTP/1.1 client, or with the HTTP/2 one.
func (t *h1Trip) do(ctx context.Context, q *hop, res *hopResult, rs *response, http2 bool) error {
	if t.ctx != ctx && !t.external { // once per VU: the context that stops it aborts its requests
		if t.stop != nil {
			t.stop()
		}
		t.ctx, t.stop = ctx, context.AfterFunc(ctx, t.abort)
	}
	// A first hop's deadline is a whole timeout after the clock was just
	// read; a redirect's may have passed, which h1 must not see as "none".
	if !q.first && !time.Now().Before(q.deadline) {
		return context.DeadlineExceeded
	}
	x := &rs.lean // the VU's, lent with its request state: not the client's, 400 B a thinking VU would hold
	x.req = h1.Request{Method: q.method, URL: q.url, Header: q.header, Body: q.body, KeepBody: q.keepBody,
		MaxBody: q.maxBody, KeepError: q.keepError, Host: q.host, UserAgent: q.agent, Deadline: q.deadline, Start: q.start, OnWritten: t.written, OnDial: t.dialing}
	t.busy.Store(true)
	var err error
	if http2 {
		err = t.h2.Do(&x.req, &x.resp)
		res.protoMajor = 2
	} else {
		err = t.client.Do(&x.req, &x.resp)
	}
	t.busy.Store(false)
	r := &x.resp
	res.sent, res.received, res.connect, res.tls, res.truncated = r.Sent, r.Received, r.Connect, r.TLS, r.Truncated
	res.done = r.Done
	if !q.keepBody { // a kept error body is not the step's: its cut is not a truncated body
		res.truncated, res.errorCut = false, r.Truncated
	}
	if !r.FirstByte.IsZero() && !r.Wrote.IsZero() {
		res.waited = r.FirstByte.Sub(r.Wrote)
	}
	res.phase = phaseExchange
	if err != nil {
		var hs *h1.HandshakeError
		switch {
		case isDial(err):
			res.phase = phaseConnect
		case errors.As(err, &hs):
			res.phase = phaseTLS
		case r.Status != 0: // set once the final head is read
			res.phase, res.head = phaseBody, r.FirstByte
			rs.status, rs.rawHeader, rs.body, res.reason = r.Status, r.Header, r.Body, r.StatusText // a cut body's status still says how it failed
		case r.Wrote.IsZero(): // set once the whole request is written
			res.phase = phaseWrite
		}
		return err
	}
	rs.status, rs.rawHeader, rs.body = r.Status, r.Header, r.Body
	rs.rawCookie, rs.rawLocation = r.SetCookie, r.Location
	res.reason = r.StatusText
	return nil
}

// isDial reports an error of the lean client's dial.
func isDial(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// h2Lean is a VU's lean HTTP/2 client as a roundTripper: its h1Trip's h2
// client, and net/http for a server that does not choose HTTP/2 (the VU
// then stays with net/http). A pointer-shaped value: no allocation.
type h2Lean struct{ v *vu }

func (l h2Lean) roundTrip(ctx context.Context, q *hop, res *hopResult, rs *response) error {
	t := l.v.h1
	err := t.do(ctx, q, res, rs, true)
	if !errors.Is(err, h2.ErrNoHTTP2) {
		return err
	}
	t.noH2 = true // nothing was written: the hop goes out through net/http, which speaks HTTP/1.1 to it
	probe := *res // the connection that found out: its connect, handshake and bytes are the hop's too
	*res = hopResult{}
	rs.reset()
	err = l.v.netClient().roundTrip(ctx, q, res, rs)
	res.connect += probe.connect
	res.tls += probe.tls
	res.sent += probe.sent
	res.received += probe.received
	return err
}

func (l h2Lean) close() {} // the VU's h1Trip closes its client

package h1

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/engine/abort"
)

// Client sends requests over kept-alive connections, one per host. It is
// owned by one VU; see the package comment.
type Client struct {
	cfg       Config
	dial      func(ctx context.Context, network, addr string) (net.Conn, error)
	tlsConfs  TLSConfigs               // the last https host's configuration and this client's sessions
	conns     []*conn                  // usually one: a VU talks to one host
	wbuf      []byte                   // the request's head, and its body unless streamed
	hdr       []byte                   // the last response's header fields, normalized (see Response.Header)
	reason    []byte                   // the last response's reason phrase
	body      []byte                   // the last response's body, when kept
	maxBody   int64                    // the current request's MaxBody
	g         abort.Guard[conn, *conn] // Abort's state; its mutex guards conns against Close
	closes    *IdleCloses              // what is known of the servers' idle closes (see neverRead); nil: nothing yet
	firstRead int                      // the connection's read that brought Response.FirstByte
	// checkAlways: a kept-alive connection of this client was found closed
	// or written to while idle, so every reuse is checked from now on.
	checkAlways bool
	skipped     bool // the exchange in progress reused its connection without the idle check
	idleChecks  int  // idle checks made, for tests
	resent      int  // requests sent again because the target never read them, for tests
	arms        int  // socket deadlines set by arm, for tests
}

// freshIdle is how recently a connection's last response must have been
// read for an idempotent request to reuse it without the idle check (see
// Do). A closed-model VU sends its next request a few µs after reading a
// response; servers close idle connections after seconds.
const freshIdle = 100 * time.Microsecond

// NewClient returns a client that dials with d, with crypto/tls's
// defaults for https.
func NewClient(d *net.Dialer) *Client {
	return New(Config{Dialer: d})
}

// New returns a client configured by cfg.
func New(cfg Config) *Client {
	c := &Client{cfg: cfg, dial: cfg.Dial, closes: cfg.IdleCloses, tlsConfs: TLSConfigs{Base: cfg.TLS, Protos: http11}}
	if c.dial == nil {
		c.dial = cfg.Dialer.DialContext
	}
	return c
}

// noteIdleClose records that cn's server closed it after it had been idle
// for d, in the client's own IdleCloses unless the run shares one.
func (c *Client) noteIdleClose(cn *conn, d time.Duration) {
	if c.closes == nil {
		c.closes = new(IdleCloses) // at the first: a client that never meets one allocates none
	}
	c.closes.note(cn.addr, d)
}

// Abort makes an in-flight Do return ErrAborted, and every later one too.
// It may be called from any goroutine.
func (c *Client) Abort() { c.g.Abort() }

// Close closes the client's connections.
func (c *Client) Close() {
	c.g.Lock()
	defer c.g.Unlock()
	for _, cn := range c.conns {
		cn.close(true)
	}
	c.conns = nil
}

// Do sends req and reads the response into resp. A kept-alive connection
// that received anything while idle is dropped first. A request written
// to the wire is a request: it is counted once, and failed if no response
// came. It goes out once more, on a new connection, only when the target's
// application never read it: its write failed on a reused connection with
// nothing sent, or (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) the reused
// connection was closed or reset before any response byte as the server
// closed it for being idle (see neverRead). A server that read the request
// and closed or reset the connection gets it once: a failure (conn_reset),
// never sent again (net/http would send such a GET again, and the target
// would count two where the run counts one).
// An idempotent request whose Start is less than freshIdle after the
// connection's last response skips the idle check (a system call): a close
// in that window meets the same rules, and the client checks every reuse
// once it has seen one.
// resp is filled as far as the exchange got, also when Do fails.
func (c *Client) Do(req *Request, resp *Response) error {
	*resp = Response{}
	dial, host, target, secure, ok := splitURL(req.URL)
	if !ok {
		return badURL(req.URL)
	}
	if !validOverride(req.Host) || !validOverride(req.UserAgent) {
		return errBadOverride
	}
	deadline := req.Deadline // zero: no deadline
	if deadline.IsZero() && req.Timeout > 0 {
		deadline = time.Now().Add(req.Timeout)
	}
	if c.wbuf == nil { // sized once: growing by appends left 3 buffers of garbage per VU's start
		c.wbuf = make([]byte, 0, requestSize(req, host, target))
	}
	c.wbuf = appendRequest(c.wbuf[:0], req, host, target)
	for attempt := 0; ; attempt++ {
		cn, err := c.conn(dial, secure, deadline, req.OnDial, resp)
		if err != nil {
			return c.abortErr(err)
		}
		err = c.exchange(cn, req, resp, deadline)
		if cn.wire != nil {
			cn.account(resp)
		}
		if err == nil {
			if !cn.reusable() {
				c.drop(cn, true)
			} else {
				cn.releaseBuf() // until the next exchange: a thinking VU holds none
			}
			return nil
		}
		c.drop(cn, false)
		if c.skipped && resp.Received == 0 {
			// A server that half-closed right after its last response and
			// still reads sends no close the wait could see: the request
			// waited for its deadline. Check every reuse from now on.
			c.checkAlways = true
		}
		if err == errStale || errors.Is(err, errUnread) && attempt == 0 {
			c.checkAlways = true
			if err != errStale {
				c.resent++
			}
			*resp = Response{} // the kept-alive connection was unusable: start again on a fresh one
			continue
		}
		return c.abortErr(err)
	}
}

func (c *Client) abortErr(err error) error {
	if c.g.Aborted() {
		return ErrAborted
	}
	if errors.Is(err, errUnread) || err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// conn returns the kept-alive connection to addr, dialling a new one (and
// making its TLS handshake, when secure) if needed.
func (c *Client) conn(addr []byte, secure bool, deadline time.Time, onDial func() func(net.Conn), resp *Response) (*conn, error) {
	for _, cn := range c.conns {
		if cn.addr == string(addr) && cn.secure == secure { // compiles to a comparison without allocating
			return cn, nil
		}
	}
	target := string(addr)
	switch {
	case HasPort(addr):
	case secure:
		target += ":443"
	default:
		target += ":80"
	}
	ctx, cancel, ok := c.g.Dial(deadline)
	defer c.g.EndDial(cancel)
	if !ok {
		return nil, ErrAborted
	}
	start := time.Now()
	nc, dialled, err := c.dialTo(ctx, target, onDial)
	if err != nil {
		return nil, err
	}
	resp.Connect = time.Since(start)
	var cfg *tls.Config
	if secure {
		cfg = c.tlsConfs.For(ServerName(string(addr)))
	}
	cn := newConn(nc, string(addr), cfg)
	cn.aborted = c.g.Flag()
	if dialled != nil {
		dialled(cn.watched())
	}
	if secure {
		if err := c.handshake(cn, deadline, resp); err != nil {
			cn.close(false)
			return nil, err
		}
	}
	c.g.Lock()
	c.conns = append(c.conns, cn)
	c.g.Unlock()
	return cn, nil
}

// dialTo dials target, on the caller's goroutine when Inline, telling
// onDial (Request.OnDial) as it starts; it returns what onDial returned,
// to be told the connection.
func (c *Client) dialTo(ctx context.Context, target string, onDial func() func(net.Conn)) (nc net.Conn, dialled func(net.Conn), err error) {
	if onDial != nil {
		dialled = onDial()
	}
	if c.cfg.Inline {
		nc, err = c.dial(ctx, "tcp", target)
	} else {
		err = aside(func() (err error) {
			nc, err = c.dial(ctx, "tcp", target)
			return err
		})
	}
	return nc, dialled, err
}

// drop closes and forgets a connection that cannot be reused; graceful
// after a complete exchange, not after a failure (see conn.close).
func (c *Client) drop(cn *conn, graceful bool) {
	cn.close(graceful)
	c.g.Lock()
	defer c.g.Unlock()
	for i, x := range c.conns {
		if x == cn {
			c.conns = append(c.conns[:i], c.conns[i+1:]...)
			break
		}
	}
}

// errStale says a kept-alive connection received bytes or a close while
// idle; Do drops it and sends the request on a fresh one.
var errStale = errors.New("kept-alive connection received data while idle")

// exchange writes the request and reads the response on cn.
func (c *Client) exchange(cn *conn, req *Request, resp *Response, deadline time.Time) error {
	// The deadline is set before cn is published to Abort, so Abort's past
	// deadline is never overwritten by this one.
	if err := c.arm(cn, req, deadline); err != nil {
		return err
	}
	c.g.Use(cn) // before checking aborted, so Abort sees cn or Do sees the flag
	defer c.g.Use(nil)
	if c.g.Aborted() {
		return ErrAborted
	}
	reused := cn.used > 0
	check := reused && !c.fresh(cn, req)
	c.skipped = reused && !check
	if check {
		c.idleChecks++
	}
	n, wrote, stale, err := cn.send(c.wbuf, streamed(req.Body), check, req.OnWritten)
	if stale {
		if cn.idle.closed() { // not bytes: the server closed it while idle
			c.noteIdleClose(cn, cn.clk.Now().Sub(cn.lastDone))
		}
		return errStale
	}
	resp.Sent = int64(n)
	if err != nil {
		if reused && n == 0 && isReset(err) {
			c.noteIdleClose(cn, cn.clk.Now().Sub(cn.lastDone))
			return errUnread // reset while idle: nothing went out
		}
		return err
	}
	resp.Wrote = wrote
	if err := c.readResponse(cn, req, resp); err != nil {
		resp.Received += int64(cn.w - cn.r) // read for this exchange, though not understood
		if reused && resp.Received == 0 && isClosed(err) {
			resp.Done = cn.clk.Now() // the failure surfaced now, not after the wait for a reset
			if c.neverRead(cn, req, resp, err) {
				return errUnread
			}
		}
		return err
	}
	if !resp.FirstByte.IsZero() && cn.reads == c.firstRead {
		resp.Done = resp.FirstByte // the whole response came in the read that was timed
	} else {
		resp.Done = cn.clk.Now()
	}
	cn.used++
	cn.lastDone = resp.Done
	return nil
}

// arm sets cn's socket deadline for an exchange ending at deadline. Over
// http, with the caller's Start known, it keeps the deadline already set
// when that is earlier by at most a 16th of the request's timeout: setting
// one updates a runtime timer, and a closed-model request starts a few µs
// after the last. If the kept one fires, fill sets the exact one and reads
// on (conn.rearm), so no request ends early.
func (c *Client) arm(cn *conn, req *Request, deadline time.Time) error {
	cn.want = deadline
	if cn.raw.ok() && !req.Start.IsZero() && !deadline.IsZero() && !cn.armed.IsZero() &&
		!deadline.Before(cn.armed) && deadline.Sub(cn.armed) <= deadline.Sub(req.Start)/16 {
		return nil
	}
	cn.armed = deadline
	c.arms++
	return cn.nc.SetDeadline(deadline)
}

// fresh reports whether req may reuse cn without the idle check: plain
// http (over https the check also reads what crypto/tls must see), an
// idempotent method (a retry covers a close the check would have seen),
// and cn's last response read less than freshIdle before req.Start.
func (c *Client) fresh(cn *conn, req *Request) bool {
	return cn.tc == nil && !c.checkAlways && !req.Start.IsZero() && req.Start.Sub(cn.lastDone) < freshIdle && idempotent(req.Method)
}

// InlineBodyMax is the largest request body copied into the client's write
// buffer behind its head, to go out in one write. A larger one is written
// from Request.Body itself after the head: a buffer its size would stay
// with the VU for the run (100 VUs uploading 64 MiB held 6.4 GB).
const InlineBodyMax = 64 << 10

// streamed returns body when it is written from where it is (larger than
// InlineBodyMax), else nil: appendRequest copies it.
func streamed(body []byte) []byte {
	if len(body) > InlineBodyMax {
		return body
	}
	return nil
}

// requestSize is about what appendRequest writes for req: a bound of
// the fixed parts' length, and every variable part's.
func requestSize(req *Request, host, target []byte) int {
	const fixed = 96 // the request line's and fields' fixed text, the default agent, a length
	return fixed + len(req.Method) + len(target) + max(len(host), len(req.Host)) + len(req.UserAgent) + len(req.Header) + len(req.Body) - len(streamed(req.Body))
}

// appendRequest writes the request line and headers, then the body unless
// it is streamed (see InlineBodyMax).
func appendRequest(b []byte, req *Request, host, target []byte) []byte {
	b = append(b, req.Method...)
	b = append(b, ' ')
	if len(target) == 0 || target[0] == '?' {
		b = append(b, '/')
	}
	b = append(b, target...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	if req.Host != nil {
		host = req.Host
	}
	b = append(b, host...)
	b = append(b, "\r\nUser-Agent: "...)
	if req.UserAgent != nil {
		b = append(b, req.UserAgent...)
	} else {
		b = append(b, "loadlens"...)
	}
	b = append(b, "\r\n"...)
	b = append(b, req.Header...)
	if req.Body != nil || methodNeedsLength(req.Method) {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(req.Body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	if streamed(req.Body) != nil {
		return b
	}
	return append(b, req.Body...)
}

// idempotent reports methods that may be sent again when the target did
// not read them: repeating them changes nothing.
func idempotent(m string) bool {
	switch m {
	case "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE":
		return true
	}
	return false
}

// methodNeedsLength reports methods whose empty body must still be announced.
func methodNeedsLength(m string) bool {
	return m == "POST" || m == "PUT" || m == "PATCH"
}

// validOverride reports a Host or User-Agent value without control
// characters (a CR or LF would split the request).
func validOverride(v []byte) bool {
	for _, c := range v {
		if c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// resetWait is how long a reused connection closed before its response
// waits for the reset that says the server never read the request: on
// loopback it follows in microseconds, over a network within a round trip.
const resetWait = 5 * time.Millisecond

// neverRead reports whether an idempotent request whose reused connection
// was closed or reset before any response byte (err) cannot have reached
// the server's application, so that it goes out again as the same request.
// A close (FIN) followed by a reset is the kernel's answer to a request
// that reached a socket the server had closed: proof. A reset alone is
// what a server sends for a request it read and reset, and also for one
// that reached it as it closed the idle connection with the request still
// unread; only the idle time tells them apart: the latter is taken when
// the connection had been idle at least half the shortest idle time after
// which this host was found to have closed a connection (IdleCloses). A
// close with no reset after it is a request the server read: it is counted,
// and failed, as is every other.
func (c *Client) neverRead(cn *conn, req *Request, resp *Response, err error) bool {
	if !idempotent(req.Method) {
		return false
	}
	idle := resp.Wrote.Sub(cn.lastDone)
	if !isReset(err) { // a close: the reset that may follow says whether the server had closed first
		reset, afterClose := cn.idle.resetWithin(resetWait)
		if afterClose {
			c.noteIdleClose(cn, idle)
			return true
		}
		if !reset {
			return false
		}
	}
	t := c.closes.shortest(cn.addr)
	return t > 0 && idle >= t/2
}

// isClosed reports a read that found the connection closed or reset.
func isClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || isReset(err)
}

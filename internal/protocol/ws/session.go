package ws

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// session is one VU's runner of one ws: step.
type session struct {
	st     *step
	url    []byte
	buf    []byte    // the message being read; grows up to the step's max_message_size
	out    []payload // send:'s messages, one each
	reply  payload   // reply:'s message
	varsMu sync.Mutex

	vu       protocol.VU
	conn     *websocket.Conn
	writeMu  sync.Mutex // one writer at a time: the reader's replies, the scheduled sender, the close
	intended time.Time
	begin    time.Time
	lastMsg  time.Time
	sent     atomic.Int64 // messages sent: the scheduled sender counts too
	lastSent atomic.Int64 // when the last message was sent (UnixNano); 0: none
	timeUp   atomic.Bool  // the step's duration ended the session
	closing  atomic.Bool  // the close frame is sent
	stalled  atomic.Bool  // the stall timer ended the session
	facts    sample.Facts
	sample   sample.Request
	status   int
	wire     *protocol.Wire // the session's connections' bytes, as the HTTP path counts them
	dialing  dialing        // its Wire and its connection, for the step's dialer
	read0    int64          // wire's counts when the run began
	written0 int64
	matched  bool // a message matched until:
}

// Errors that end a session as a failure.
var (
	errClosed    = errors.New("the server closed the session")
	errNoMatch   = errors.New("no message matched the until check")
	errHandshake = errors.New("handshake refused")
	errPayload   = errors.New("a binary message could not be sent")
	errTooLong   = errors.New("a message longer than max_message_size")
	errBadURL    = errors.New("bad URL")
)

// Run connects, exchanges messages until the step's end, closes, and
// records the sample.
func (s *session) Run(ctx context.Context, vu protocol.VU, intended time.Time) time.Time {
	s.vu, s.intended, s.begin = vu, intended, time.Now()
	s.lastMsg, s.status, s.matched = time.Time{}, 0, false
	s.read0, s.written0 = s.wire.Mark()
	s.sent.Store(0)
	s.lastSent.Store(0)
	s.timeUp.Store(false)
	s.closing.Store(false)
	s.facts.Reset()
	err := s.session(ctx)
	return s.record(ctx, err)
}

// session runs the connection: dial, first sends, the scheduled sender,
// then reading until the end.
func (s *session) session(ctx context.Context) error {
	st := s.st.s
	// Reads and writes wait on the socket, not on a context: the session's
	// end (the run's, a stall) closes it, from its dial on, and cut reads
	// why from ctx and stalled. The dial alone has a context of its own,
	// which a stall cancels: an idle session holds none (a context, its
	// channel and its children's map were half a kilobyte a session).
	s.stalled.Store(false)
	s.dialing.reset()
	defer s.dialing.reset() // after the watchers' stop: the VU keeps no closed connection
	dctx, stopDial := context.WithCancel(ctx)
	defer stopDial()
	s.dialing.start(s.vu, stopDial)
	idle := time.AfterFunc(st.Timeout, s.stall)
	defer idle.Stop()
	defer context.AfterFunc(ctx, s.dialing.close)()
	err := s.dial(dctx)
	s.dialing.dialed()
	stopDial()
	if err != nil {
		return s.cut(ctx, err)
	}
	defer s.conn.Close()
	if st.Duration > 0 {
		end := time.AfterFunc(st.Duration-time.Since(s.begin), func() { s.endNow(idle) })
		defer end.Stop()
	}
	if err := s.sendFirst(); err != nil {
		return s.cut(ctx, err)
	}
	if stop := s.schedule(ctx); stop != nil {
		defer func() {
			_ = s.conn.Close() // a sender blocked on a peer that never reads gives up
			stop()
		}()
	}
	idle.Reset(st.Timeout)
	err = s.read(idle)
	if err == nil || errors.Is(err, errTimeUp) {
		s.closeHandshake()
		s.facts.Code = websocket.CloseNormalClosure
	}
	return s.cut(ctx, err)
}

// stall ends a session that received nothing within its timeout (or,
// after its duration, whose close the server did not answer in time):
// cut reads it as a timeout.
func (s *session) stall() {
	s.stalled.Store(true)
	s.dialing.close()
}

// errTimeUp ends the read when the duration ended as a message came in:
// that message and any after it are the close handshake's, not counted.
var errTimeUp = errors.New("the duration ended")

// endNow ends the session at its duration, whatever the server does: the
// stall timer, which the reader no longer resets, cuts the connection
// closeWait from now (a server that floods, never reads or never answers
// the close frame cannot hold the session), and the close frame asks the
// server for its own close, which ends the pending read sooner.
func (s *session) endNow(idle *time.Timer) {
	s.timeUp.Store(true) // before the Reset: a reader that resets after it sees timeUp (read)
	idle.Reset(closeWait(s.st.s.Timeout))
	s.sendClose()
}

// sendClose starts the close handshake, once: a close frame, code 1000,
// and the deadline by which the server's close must come.
func (s *session) sendClose() {
	if s.closing.Swap(true) {
		return
	}
	by := time.Now().Add(closeWait(s.st.s.Timeout))
	_ = s.conn.SetReadDeadline(by) // the net.Conn's: safe beside the reader
	_ = s.conn.WriteControl(websocket.CloseMessage, closeNormal, by)
}

// closeNormal is a close frame's payload: code 1000, no reason.
var closeNormal = websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")

// closeHandshake sends a close frame (unless the duration's end did) and
// reads, dropping messages, until the server's close frame or the close's
// deadline.
func (s *session) closeHandshake() {
	s.sendClose()
	for range 1000 { // bounded: a server may keep sending
		if _, r, err := s.conn.NextReader(); err != nil || s.readInto(r) != nil {
			return
		}
	}
}

// closeWait bounds the wait for the server's side of a close: a second,
// as k6 once waited (k6/ws now closes the connection with its close frame).
func closeWait(timeout time.Duration) time.Duration { return min(timeout, time.Second) }

// cut says why the session ended: nil for the step's own end (duration,
// max_messages, until:), the run's end, a stall as a timeout, a close by
// the server before the step's end, or the error.
func (s *session) cut(ctx context.Context, err error) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		s.facts.Code = ce.Code
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case s.timeUp.Load():
		s.facts.Code = websocket.CloseNormalClosure // ours; the read may see the closed connection rather than the peer's echo
		if s.st.s.Until != nil && !s.matched {
			return fmt.Errorf("%w within the duration (%s)", errNoMatch, units.DurationLiteral(s.st.s.Duration))
		}
		return nil
	case s.stalled.Load():
		return timeoutError("no message within the timeout (" + units.DurationLiteral(s.st.s.Timeout) + ") after " +
			units.CountOf(s.facts.MsgsReceived, "message", "messages"))
	case s.facts.Code != 0:
		return fmt.Errorf("%w (%d) after %s, before the step's end", errClosed, s.facts.Code, units.CountOf(s.facts.MsgsReceived, "message", "messages"))
	}
	return err
}

// timeoutError is a stall, classified as a timeout as net.Error timeouts are.
type timeoutError string

func (e timeoutError) Error() string   { return string(e) }
func (e timeoutError) Timeout() bool   { return true }
func (e timeoutError) Temporary() bool { return true }

// record reports the session's sample and returns when it ended.
func (s *session) record(ctx context.Context, err error) time.Time {
	end := time.Now()
	f := &s.facts
	f.MsgsSent = s.sent.Load()
	f.Session = end.Sub(s.begin)
	r := &s.sample
	read, written := s.wire.Mark()
	*r = sample.Request{Endpoint: s.st.s.Endpoint, End: s.vu.Since(end), Duration: end.Sub(s.intended),
		Sent: written - s.written0, Received: read - s.read0, Status: s.status, Waiting: f.FirstMsg, Facts: f}
	if err != nil {
		r.Kind, r.Err = s.vu.Outcome(ctx, err)
		switch {
		case r.Kind == sample.Interrupted:
		case errors.Is(err, errHandshake):
			r.Kind = handshakeKind(s.status)
			r.Err = err.Error() // whole: what the target said is bounded already, and Outcome cuts at 200 bytes
		case errors.Is(err, errClosed):
			r.Kind = sample.ConnReset
		case errors.Is(err, errNoMatch):
			r.Kind = sample.Timeout
		}
	}
	s.vu.Record(r)
	return end
}

// handshakeKind is the failure kind of a handshake answered with status.
func handshakeKind(status int) sample.Kind {
	if k := sample.KindOfStatus(status); k != sample.OK {
		return k
	}
	return sample.Other
}

// AnnouncesWritten makes the session a protocol.Announcer: its dial and
// handshake hold its VU's place in the engine's start gate until the
// upgrade request is written (upgradeConn.flush).
func (s *session) AnnouncesWritten() {}

// Close releases nothing: a session's connection is closed when it ends,
// and the handshakes' client pools none.
func (s *session) Close() {}

// dial renders the URL and headers, connects and runs the handshake checks.
func (s *session) dial(ctx context.Context) error {
	st := s.st.s
	tc := s.vu.Vars()
	s.url = st.URL.Render(s.url[:0], tc)
	h := http.Header{"User-Agent": {"loadlens"}}
	var val []byte
	for _, hd := range st.Headers {
		val = hd.Value.Render(val[:0], tc)
		h[http.CanonicalHeaderKey(hd.Name)] = []string{string(val)} // Host included: the dialer sends it as the request's host
	}
	u := wsURL(string(s.url))
	if !dialable(u) {
		// said here, not as the library's "malformed ws or wss URL": a template's value is known only now
		return fmt.Errorf("%w %q: a ws: step's URL is ws://, wss://, http:// or https:// and a host", errBadURL, plan.Redact(u))
	}
	conn, resp, err := handshake(context.WithValue(ctx, dialingKey{}, &s.dialing), s.st.dialer, u, h)
	refused := ""
	if resp != nil {
		s.status = resp.StatusCode
		s.checkHead(resp)
		if err != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			// the library kept the body's first KiB, in memory: what the target said is in it
			refused = protocol.Refused(resp.StatusCode, http.StatusText(resp.StatusCode), resp.Body)
		}
		_ = resp.Body.Close()
	}
	if err != nil {
		if refused != "" {
			return fmt.Errorf("%w: status %s", errHandshake, refused)
		}
		return err
	}
	conn.SetReadLimit(st.MaxMessage)
	s.conn = conn
	return nil
}

// wsURL is the plan's http(s):// URL as the ws(s):// one it upgrades.
func wsURL(u string) string {
	if len(u) >= 4 && strings.EqualFold(u[:4], "http") {
		return "ws" + u[4:]
	}
	return u
}

// dialable reports whether u, as wsURL made it, is a ws:// or wss:// URL
// with a host, which the library dials.
func dialable(u string) bool {
	for _, scheme := range []string{"ws://", "wss://"} {
		if len(u) > len(scheme) && strings.EqualFold(u[:len(scheme)], scheme) {
			return !strings.ContainsRune("/?#", rune(u[len(scheme)]))
		}
	}
	return false
}

// handshake dials on a goroutine of its own, which ends with it: the
// handshake's deep stack (TLS, the HTTP response's parsing) grows that
// goroutine's, not the VU's, which an idle session keeps blocked in a read
// for its whole life.
func handshake(ctx context.Context, d *websocket.Dialer, url string, h http.Header) (*websocket.Conn, *http.Response, error) {
	type dialed struct {
		conn *websocket.Conn
		resp *http.Response
		err  error
	}
	done := make(chan dialed, 1)
	go func() {
		c, r, err := d.DialContext(ctx, url, h)
		done <- dialed{c, r, err}
	}()
	r := <-done
	return r.conn, r.resp, r.err
}

// read reads messages until max_messages, until: or the connection's end.
func (s *session) read(idle *time.Timer) error {
	st := s.st.s
	for {
		_, r, err := s.conn.NextReader()
		if err == nil {
			err = s.readInto(r)
		}
		if errors.Is(err, websocket.ErrReadLimit) {
			return fmt.Errorf("%w (%s)", errTooLong, units.Size(st.MaxMessage))
		}
		if err != nil {
			return err
		}
		idle.Reset(st.Timeout)
		if s.timeUp.Load() { // after the Reset: endNow's Reset, after timeUp, then comes after ours
			return errTimeUp
		}
		if done, err := s.message(time.Now()); done || err != nil {
			return err
		}
	}
}

// readInto reads one message into buf; the connection's read limit
// (max_message_size) bounds it.
func (s *session) readInto(r io.Reader) error {
	s.buf = s.buf[:0]
	for {
		if len(s.buf) == cap(s.buf) {
			s.buf = append(s.buf, 0)[:len(s.buf)] // grow: amortised, up to the limit
		}
		n, err := r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

package h2

import (
	"errors"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
)

// stream is the request in flight's state.
type stream struct {
	id          uint32
	sendWin     int64  // its send window
	rest        []byte // body still to send
	recvUnacked int64  // DATA read not yet given back with WINDOW_UPDATE
	interim     int    // 1xx responses read
	final       bool   // the final HEADERS arrived
	done        bool   // END_STREAM arrived
	keep        bool   // keep the body
	maxBody     int64
	length      int64 // the response's content-length; -1: none
	got         int64 // DATA bytes read
	head        bool  // a HEAD request: no body whatever the length says
	written     bool  // the whole request went out
}

// maxInterim bounds the 1xx responses before the final one, as h1's.
const maxInterim = 10

// exchange sends req on a new stream of cn and reads its response.
func (c *Client) exchange(cn *conn, req *h1.Request, resp *h1.Response, u *target, deadline time.Time) error {
	// The deadline is set before cn is published to Abort, so Abort's past
	// deadline is never overwritten by this one.
	if err := cn.nc.SetDeadline(deadline); err != nil {
		return err
	}
	c.g.Use(cn)
	defer c.g.Use(nil)
	if c.g.Aborted() {
		return h1.ErrAborted
	}
	// A close without GOAWAY (a proxy's idle timeout): nothing is sent. With
	// nothing buffered, the check waits for send, which makes it after the
	// socket's readiness was reset for the wait (see h1.RawIO.SendWait).
	if cn.unchecked = cn.used > 0; cn.unchecked && !cn.quiet() {
		if cn.unchecked = false; cn.idle.Closed() {
			return errStale
		}
	}
	if err := c.idleFrames(cn); err != nil {
		return err
	}
	before := cn.wire.written
	if cn.goAway { // arrived while idle: the request goes on a new connection, unsent
		return &GoAwayError{LastStreamID: 0, Code: http2.ErrCodeNo}
	}
	st := &c.st
	*st = stream{id: cn.nextID, sendWin: cn.peerWindow, length: -1, head: req.Method == "HEAD"}
	cn.nextID += 2
	st.keep, st.maxBody = req.KeepBody, req.MaxBody
	c.body, c.hdr, c.trl, c.trlSeen, c.headOnly = c.body[:0], c.hdr[:0], c.trl[:0], false, false
	if err := c.writeHeaders(cn, req, u); err != nil {
		return err
	}
	if err := c.sendData(cn, st); err != nil {
		return err
	}
	var at time.Time
	var err error
	if len(st.rest) == 0 {
		at, err = cn.send(req.OnWritten)
	} else {
		err = cn.flush()
	}
	if err != nil {
		if err != errStale && cn.used > 0 && cn.wire.written == before {
			return unsent{err} // a kept connection the server closed while idle: nothing went out
		}
		return err
	}
	if !at.IsZero() {
		c.waited++
	}
	c.wrote(req, resp, at)
	err = c.readStream(cn, req, resp)
	resp.Header = c.hdr // also after a failure: a cut body's status and start say how it failed
	if st.keep {
		resp.Body = c.body
	}
	if err != nil {
		if c.neverRead(cn, req, resp, err) {
			return unread{err}
		}
		return err
	}
	resp.Done = c.clk.Now()
	cn.used++
	return nil
}

// neverRead reports whether a request that failed (err) on a reused
// connection closed without GOAWAY, before any frame of its answer, met a
// socket the server had already closed (its close, then a reset): the
// server never read it, and an idempotent one may go out again, as h1's
// Client.neverRead sends it.
func (c *Client) neverRead(cn *conn, req *h1.Request, resp *h1.Response, err error) bool {
	return cn.used > 0 && cn.away == nil && resp.FirstByte.IsZero() && h1.IsClosed(err) &&
		h1.Idempotent(req.Method) && cn.idle.ClosedFirst()
}

// wrote notes that the whole request went out, once it has; at is when,
// if the send told req already (see conn.send), else zero.
func (c *Client) wrote(req *h1.Request, resp *h1.Response, at time.Time) {
	if c.st.written || len(c.st.rest) > 0 {
		return
	}
	c.st.written = true
	if resp.Wrote = at; !at.IsZero() {
		return
	}
	resp.Wrote = c.clk.Now()
	if req.OnWritten != nil {
		req.OnWritten()
	}
}

// sendData queues DATA frames of the body as far as the windows allow,
// writing every flushAt bytes.
func (c *Client) sendData(cn *conn, st *stream) error {
	for len(st.rest) > 0 {
		n := int64(min(len(st.rest), cn.peerFrame))
		n = min(n, cn.sendWin, st.sendWin)
		if n <= 0 {
			return nil
		}
		if err := cn.fr.WriteData(st.id, int(n) == len(st.rest), st.rest[:n]); err != nil {
			return err
		}
		st.rest = st.rest[n:]
		cn.sendWin -= n
		st.sendWin -= n
		if len(cn.out.b) >= flushAt {
			if err := cn.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// more sends what the windows now allow of a body still unsent.
func (c *Client) more(cn *conn, req *h1.Request, resp *h1.Response) error {
	st := &c.st
	if len(st.rest) == 0 || st.done {
		return nil
	}
	if err := c.sendData(cn, st); err != nil {
		return err
	}
	if err := cn.flush(); err != nil {
		return err
	}
	c.wrote(req, resp, time.Time{})
	return nil
}

// idleFrames handles the whole frames that arrived while the connection
// was idle and are already buffered (SETTINGS, PING, GOAWAY): no read
// waits for the socket, and the answers go out with the request.
func (c *Client) idleFrames(cn *conn) error {
	for cn.br.Buffered() >= 9 {
		h, _ := cn.br.Peek(9)
		if n := int(h[0])<<16 | int(h[1])<<8 | int(h[2]); cn.br.Buffered() < 9+n {
			return nil
		}
		f, err := cn.fr.ReadFrame()
		if err != nil {
			cn.broken = true
			return readErr(cn.fr, f, err)
		}
		if err := c.control(cn, f); err != nil {
			return err
		}
	}
	return nil
}

// readStream reads frames until the stream's END_STREAM, answering the
// connection's own frames and sending more of the body as windows open.
func (c *Client) readStream(cn *conn, req *h1.Request, resp *h1.Response) error {
	st := &c.st
	for !st.done {
		// Answers (a PING's ack, WINDOW_UPDATE) go out before a read that
		// waits; those to frames that came with the response wait for the
		// next request's write: a write a call less (gRPC servers PING at
		// every request's DATA).
		if cn.br.Buffered() == 0 {
			if err := cn.flush(); err != nil {
				return err
			}
		}
		f, err := c.readFrame(cn)
		if err != nil {
			if cut, ok := err.(cutStream); ok {
				return cut
			}
			cn.broken = true
			// EOF, ErrUnexpectedEOF mid-frame, or a reset when the close found our last frames unread
			if cn.away != nil && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)) {
				return &GoAwayError{LastStreamID: cn.away.LastStreamID, Code: cn.away.Code, Debug: cn.away.Debug, closed: true}
			}
			return readErr(cn.fr, f, err)
		}
		if f.Header().StreamID != st.id {
			if err := c.control(cn, f); err != nil {
				return err
			}
			if err := c.more(cn, req, resp); err != nil {
				return err
			}
			continue
		}
		if resp.FirstByte.IsZero() && answers(f) {
			resp.FirstByte = c.clk.Now()
		}
		if err := c.onStream(cn, f, req, resp); err != nil {
			return err
		}
		if err := c.more(cn, req, resp); err != nil {
			return err
		}
	}
	if len(st.rest) > 0 { // the server answered before reading the whole body: stop sending it
		cn.fr.WriteRSTStream(st.id, http2.ErrCodeCancel)
		return cn.flush()
	}
	return nil
}

// readFrame reads the next frame; a deadline (the request's timeout, or
// Abort's) that passes before any byte of it came resets the stream
// (RST_STREAM CANCEL, sent with the connection's next write) and keeps the
// connection, as net/http's transport does: no frame was cut, so the
// connection's state is whole. A deadline mid-frame breaks it.
func (c *Client) readFrame(cn *conn) (http2.Frame, error) {
	if cn.br.Buffered() < frameHeaderLen {
		if _, err := cn.br.Peek(frameHeaderLen); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && cn.br.Buffered() == 0 {
				cn.fr.WriteRSTStream(c.st.id, http2.ErrCodeCancel)
				c.st.done = true
				return nil, cutStream{err}
			}
			if cn.br.Buffered() > 0 && errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF // as the Framer says of a cut header
			}
			return nil, err
		}
	}
	return cn.fr.ReadFrame()
}

// frameHeaderLen is an HTTP/2 frame header's length.
const frameHeaderLen = 9

// cutStream is a request's timeout at a frame's boundary: its stream was
// reset and the connection is kept.
type cutStream struct{ error }

func (e cutStream) Unwrap() error { return e.error }

// answers reports a frame of the response itself (its headers, its body or
// its reset), whose arrival is the response's first byte; a WINDOW_UPDATE
// for the request's body is not.
func answers(f http2.Frame) bool {
	switch f.(type) {
	case *http2.MetaHeadersFrame, *http2.DataFrame, *http2.RSTStreamFrame:
		return true
	}
	return false
}

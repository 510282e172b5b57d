package h1

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// conn is one kept-alive connection and its read buffer.
type conn struct {
	nc         net.Conn // the TLS connection over https, else the TCP one
	reads      int      // reads made, so that Do can tell a response that came in one
	addr       string
	secure     bool      // https
	tc         *tls.Conn // over https: nc
	wire       *wire     // over https: the TCP connection under tc
	unread     bool      // over https: the last read filled the buffer, so tc may hold more
	sentMark   int64     // over https: wire.written when the last exchange ended
	recvMark   int64     // over https: wire.read when the last exchange ended
	buf        []byte    // read buffer; unread bytes are buf[r:w]
	r, w       int
	used       int  // completed exchanges
	closeAfter bool // the last response leaves the connection unusable
	idle       idleCheck
	raw        rawIO        // over http: the socket's reads and writes
	lastDone   time.Time    // when the last response was read (Response.Done)
	armed      time.Time    // the socket's deadline, as Client.arm last set it
	want       time.Time    // the exchange's deadline; armed may be earlier (see Client.arm)
	aborted    *atomic.Bool // the client's: a deadline is never set after Abort
	clk        Clock        // times the exchanges
	primed     bool         // the next fill takes primedN, primedErr: a read sendRecv made
	primedN    int
	primedErr  error
}

// readBufSize is the read buffer's size, and the most a chunk-size line or a
// chunked trailer may take (net/http's bufio size, which bounds the same).
const readBufSize = 4 << 10

// newConn wraps a dialled TCP connection; with a TLS configuration it is
// an https connection, whose handshake is still to be made.
func newConn(nc net.Conn, addr string, cfg *tls.Config) *conn {
	cn := &conn{nc: nc, addr: addr}
	cn.raw.useClock(&cn.clk)
	if sc, ok := nc.(syscall.Conn); ok {
		cn.idle.init(sc)
		if cfg == nil {
			cn.raw.init(nc, sc)
			cn.raw.useSpace(cn.space)
		}
	}
	if cfg != nil {
		cn.secure = true
		cn.wire = newWire(nc)
		cn.tc = tls.Client(cn.wire, cfg)
		cn.nc = cn.tc
	}
	return cn
}

// watched is the connection OnDial's hook is told: over https the wire,
// whose socket reads show a handshake waiting for its server (ReadState),
// its socket through NetConn; over http the socket.
func (cn *conn) watched() net.Conn {
	if cn.wire != nil {
		return cn.wire
	}
	return cn.nc
}

// Unblock makes a pending read or write return at once (Client.Abort).
func (cn *conn) Unblock() { cn.nc.SetDeadline(time.Unix(1, 0)) }

// close closes the connection. Over https a graceful close first sends a
// close_notify alert, as net/http does; after a failure the socket is
// closed at once, since a peer that stopped reading could hold the alert's
// write for its 5 s deadline.
func (cn *conn) close(graceful bool) {
	if cn.wire != nil && !graceful {
		cn.wire.Conn.Close()
		return
	}
	cn.nc.Close()
}

// quiet reports whether nothing arrived on the idle connection since its
// last response. Over https, crypto/tls holds no record no read asked for
// (see wire), so unread bytes are in the wire's extra or the socket; they
// are read without waiting, and a connection on which only TLS 1.3
// post-handshake messages (session tickets, key updates) arrived stays
// usable: crypto/tls handles them, and a ticket never makes the client
// redial.
func (cn *conn) quiet() bool {
	if cn.tc == nil {
		return cn.idle.quiet()
	}
	if !cn.unread && !cn.wire.pending() && cn.idle.quiet() {
		return true // nothing buffered and nothing in the socket: the usual case, one system call
	}
	return cn.drainIdle()
}

// drainIdle reads what arrived on an idle https connection without waiting,
// and reports whether it was only post-handshake messages. Application
// data, a close_notify (io.EOF), an alert or a closed socket make the
// connection unusable.
func (cn *conn) drainIdle() bool {
	cn.takeBuf()
	if cn.w >= len(cn.buf) {
		return false // a reused connection's buffer is empty; this cannot happen
	}
	cn.wire.poll = true
	n, err := cn.tc.Read(cn.buf[cn.w:])
	cn.wire.poll = false
	cn.unread = false
	return n == 0 && err == errWouldBlock
}

// account sets resp's byte counts, over https, to what the socket carried
// since the connection's last exchange ended (since it opened, for the
// first: the handshake included).
func (cn *conn) account(resp *Response) {
	resp.Sent = cn.wire.written - cn.sentMark
	resp.Received = cn.wire.read - cn.recvMark
	cn.sentMark, cn.recvMark = cn.wire.written, cn.wire.read
}

// fill reads more bytes into the buffer, compacting or growing it first
// when full; limit bounds the growth. It returns io.EOF only when the peer
// closed with nothing more to read.
func (cn *conn) fill(limit int) error {
	cn.takeBuf() // pooled between exchanges (bufpool.go)
	if cn.w == len(cn.buf) {
		if cn.r > 0 {
			cn.w = copy(cn.buf, cn.buf[cn.r:cn.w])
			cn.r = 0
		} else if len(cn.buf) < limit {
			nb := make([]byte, min(2*len(cn.buf), limit))
			cn.w = copy(nb, cn.buf[cn.r:cn.w])
			cn.r, cn.buf = 0, nb
		} else {
			return ErrHeaderTooBig
		}
	}
	var n int
	var err error
	for {
		if cn.primed {
			n, err, cn.primed = cn.primedN, cn.primedErr, false
		} else if cn.raw.ok() {
			n, err = cn.raw.read(cn.buf[cn.w:])
		} else {
			n, err = cn.nc.Read(cn.buf[cn.w:])
		}
		if n > 0 || !cn.rearm(err) {
			break
		}
	}
	cn.reads++
	cn.unread = cn.tc != nil && n == len(cn.buf)-cn.w
	cn.w += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// send writes b, then tail (a streamed body, or nil), and, over http with an
// empty buffer and no tail, reads the response's first bytes with it (see
// rawIO.sendRecv): the read then waits for the socket to be readable
// instead of first finding it empty. check asks for the idle check first;
// stale says it found bytes or a close, and nothing was sent. wrote is when
// the request was written; zero if it failed. written, when set, is called
// once the request went out whole, before the response is waited for
// (inside sendRecv's wait, which writes and waits in one).
func (cn *conn) send(b, tail []byte, check bool, written func()) (n int, wrote time.Time, stale bool, err error) {
	if !cn.raw.ok() || cn.r != cn.w || tail != nil {
		if check && !cn.quiet() {
			return 0, wrote, true, nil
		}
		if tail != nil && !cn.exact() { // a deadline Client.arm kept could end a long write early
			return 0, wrote, false, ErrAborted
		}
		if n, err = cn.write(b); err != nil {
			return n, wrote, false, err
		}
		if tail != nil {
			m, err := cn.write(tail)
			if n += m; err != nil {
				return n, wrote, false, err
			}
		}
		tell(written)
		return n, cn.clk.Now(), false, nil
	}
	n, wrote, m, stale, err := cn.raw.sendRecv(b, cn.readSpace(), check, written)
	if n == 0 && wrote.IsZero() && cn.rearm(err) {
		n, wrote, m, stale, err = cn.raw.sendRecv(b, cn.readSpace(), check, written)
	}
	switch {
	case stale:
		return 0, wrote, true, nil
	case !wrote.IsZero():
		cn.primed, cn.primedN, cn.primedErr = true, m, err // fill returns it, as if it had read it
		return n, wrote, false, nil
	case err != nil:
		return n, wrote, false, err
	}
	if !cn.exact() {
		return n, time.Time{}, false, ErrAborted
	}
	m, err = cn.write(b[n:]) // the socket took only part: the rest as write does, then fill reads
	n += m
	if err != nil {
		return n, time.Time{}, false, err
	}
	tell(written)
	return n, cn.clk.Now(), false, nil
}

// tell calls f, if set.
func tell(f func()) {
	if f != nil {
		f()
	}
}

// rearm reports whether err is the socket deadline that Client.arm kept,
// earlier than the exchange's own, and if so sets the exchange's: the
// caller then tries again. A request never ends before its deadline.
func (cn *conn) rearm(err error) bool {
	return err != nil && cn.armed.Before(cn.want) && errors.Is(err, os.ErrDeadlineExceeded) && cn.exact()
}

// exact sets the exchange's own deadline if the socket has an earlier one;
// false after Abort, whose past deadline must stay. Abort sets its flag
// before its deadline, so a flag still unset after ours means Abort's
// deadline comes later.
func (cn *conn) exact() bool {
	if !cn.armed.Before(cn.want) {
		return true
	}
	if cn.aborted.Load() {
		return false
	}
	cn.armed = cn.want
	if err := cn.nc.SetDeadline(cn.want); err != nil {
		return false
	}
	return !cn.aborted.Load()
}

// write writes b, all of it unless it fails.
func (cn *conn) write(b []byte) (int, error) {
	if cn.raw.ok() {
		return cn.raw.write(b)
	}
	return cn.nc.Write(b)
}

// buffered returns the unread bytes.
func (cn *conn) buffered() []byte { return cn.buf[cn.r:cn.w] }

// consume drops n unread bytes, counting them as received.
func (cn *conn) consume(n int, resp *Response) {
	cn.r += n
	resp.Received += int64(n)
	if cn.r == cn.w {
		cn.r, cn.w = 0, 0 // an empty buffer restarts at its beginning, so reads stay large
	}
}

// reusable reports whether the connection may carry another request: the
// last response asked for nothing else, and no byte is waiting that no
// request asked for (it would be read as the next response, as net/http's
// Transport refuses to do).
func (cn *conn) reusable() bool {
	return !cn.closeAfter && cn.r == cn.w
}

// need fills the buffer until it holds n unread bytes (n ≤ readBufSize).
func (cn *conn) need(n int) error {
	for cn.w-cn.r < n {
		if err := cn.fill(readBufSize); err != nil {
			return unexpected(err)
		}
	}
	return nil
}

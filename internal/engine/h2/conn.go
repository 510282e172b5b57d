package h2

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"net"
	"syscall"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// The client's settings. The windows are large, as net/http's transport
// makes them: the client reads each DATA frame as it comes and keeps at
// most MaxBody of it, so a window costs no memory, and a small response
// needs no WINDOW_UPDATE.
const (
	streamWindow  = 4 << 20
	connWindow    = 1 << 30
	maxHeaderList = 64 << 10 // as h1 bounds a response head
	readBufSize   = 16 << 10
	// flushAt is how much of a request's frames is buffered before a write:
	// a large body goes out in parts, never copied whole.
	flushAt = 64 << 10
	// maxStreamID is the last stream id a connection may open (2^31-1).
	maxStreamID = 1<<31 - 1
)

// conn is one HTTP/2 connection and its state.
type conn struct {
	nc     net.Conn // the TLS connection over https, else the TCP one
	wire   *wire    // the socket under it, counting
	addr   string
	secure bool
	fr     *http2.Framer
	br     *bufio.Reader
	in     fillReader // what br reads: nc
	out    outBuf     // frames to write: the Framer writes here, flush sends them
	enc    *hpack.Encoder
	hb     bytes.Buffer // the header block being encoded
	same   sameBlock
	nextID uint32
	// the peer's flow-control windows and settings
	sendWin     int64 // the connection's send window
	peerWindow  int64 // SETTINGS_INITIAL_WINDOW_SIZE: a new stream's send window
	peerFrame   int   // SETTINGS_MAX_FRAME_SIZE
	recvUnacked int64 // DATA read on the connection not yet given back with WINDOW_UPDATE
	goAway      bool  // the server sent GOAWAY: no new stream
	away        *GoAwayError
	broken      bool         // a connection error: close it
	idle        h1.IdleCheck // the socket's, for a close while idle (a server's without GOAWAY)
	used        int          // completed exchanges
	unchecked   bool         // the idle check is owed: send or flush makes it
	sentMark    int64        // wire.written when the last exchange ended
	recvMark    int64        // wire.read when the last exchange ended
}

// outBuf collects frames for one write.
type outBuf struct{ b []byte }

func (o *outBuf) Write(p []byte) (int, error) {
	o.b = append(o.b, p...)
	return len(p), nil
}

// newConn wraps a dialled connection whose TLS handshake (if any) is done,
// and queues the preface, the client's SETTINGS and the connection's
// window: they go out with the first request.
func newConn(nc net.Conn, w *wire, addr string, secure bool) *conn {
	cn := &conn{nc: nc, wire: w, addr: addr, secure: secure, nextID: 1,
		sendWin: 65535, peerWindow: 65535, peerFrame: 16384}
	if sc, ok := w.Conn.(syscall.Conn); ok {
		cn.idle.Init(sc)
	}
	cn.in.r, cn.in.w = nc, w
	cn.br = bufio.NewReaderSize(&cn.in, readBufSize)
	cn.fr = http2.NewFramer(&cn.out, cn.br)
	cn.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	cn.fr.MaxHeaderListSize = maxHeaderList
	cn.fr.SetMaxReadFrameSize(16384) // the default the client announces by not setting it
	cn.fr.SetReuseFrames()
	cn.enc = hpack.NewEncoder(&cn.hb)
	cn.out.b = append(cn.out.b, http2.ClientPreface...)
	cn.fr.WriteSettings(
		http2.Setting{ID: http2.SettingEnablePush, Val: 0},
		http2.Setting{ID: http2.SettingInitialWindowSize, Val: streamWindow},
		http2.Setting{ID: http2.SettingMaxHeaderListSize, Val: maxHeaderList},
	)
	cn.fr.WriteWindowUpdate(0, connWindow-65535)
	return cn
}

// flush writes the queued frames, after the idle check if it is owed.
func (cn *conn) flush() error {
	if len(cn.out.b) == 0 {
		return nil
	}
	if cn.unchecked {
		if cn.unchecked = false; cn.idle.Closed() {
			return errStale
		}
	}
	_, err := cn.nc.Write(cn.out.b)
	cn.out.b = cn.out.b[:0]
	if err != nil {
		cn.broken = true
	}
	return err
}

// usable reports whether the connection may carry another stream.
func (cn *conn) usable() bool {
	return !cn.goAway && !cn.broken && cn.nextID < maxStreamID
}

func (cn *conn) close() { cn.nc.Close() }

// Unblock makes a pending read or write return at once (Client.Abort).
func (cn *conn) Unblock() { cn.nc.SetDeadline(time.Unix(1, 0)) }

// account sets resp's byte counts to what the socket carried since the
// connection's last exchange ended (since it opened, for the first: the
// handshake, preface and settings included), as h1 counts https.
func (cn *conn) account(resp *h1.Response) {
	resp.Sent = cn.wire.written - cn.sentMark
	resp.Received = cn.wire.read - cn.recvMark
	cn.sentMark, cn.recvMark = cn.wire.written, cn.wire.read
}

// conn returns the connection to u's host, dialling a new one (with its
// TLS handshake, over https) if needed.
func (c *Client) conn(u target, deadline time.Time, onDial func() func(net.Conn), resp *h1.Response) (*conn, error) {
	for _, cn := range c.conns {
		if cn.addr == u.dial && cn.secure == u.secure && cn.usable() {
			return cn, nil
		}
	}
	ctx, cancel, ok := c.g.Dial(deadline)
	defer c.g.EndDial(cancel)
	if !ok {
		return nil, h1.ErrAborted
	}
	var dialled func(net.Conn)
	if onDial != nil {
		dialled = onDial()
	}
	start := time.Now()
	var nc net.Conn
	err := c.aside(func() (err error) {
		nc, err = c.dial(ctx, "tcp", u.dial)
		return err
	})
	if err != nil {
		return nil, err
	}
	resp.Connect = time.Since(start)
	w := newWire(nc, u.secure, &c.clk)
	if dialled != nil {
		dialled(w)
	}
	var top net.Conn = w
	if u.secure {
		tc := tls.Client(w, c.tlsConfs.For(h1.ServerName(string(u.authority))))
		if err := c.handshake(tc, w, deadline, resp); err != nil {
			w.Conn.Close()
			return nil, err
		}
		if tc.ConnectionState().NegotiatedProtocol != "h2" {
			w.Conn.Close()
			resp.Sent, resp.Received = w.written, w.read // the handshake's: the request's, though it goes on another connection
			return nil, ErrNoHTTP2
		}
		top = tc
	}
	cn := newConn(top, w, u.dial, u.secure)
	c.g.Lock()
	c.conns = append(c.conns, cn)
	c.g.Unlock()
	return cn, nil
}

// aside runs f on the caller's goroutine when Inline, else on a goroutine
// of its own (see h1's aside: a dial's and a handshake's stack growth
// stays off the VU's).
func (c *Client) aside(f func() error) error {
	if c.cfg.Inline {
		return f()
	}
	done := make(chan error, 1)
	go func() { done <- f() }()
	return <-done
}

// alpn is what a connection offers: HTTP/2, and HTTP/1.1 for a server
// without it (the VU then falls back to net/http).
var alpn = []string{"h2", "http/1.1"}

// handshake runs tc's handshake within the handshake timeout and the
// request's deadline; Abort ends it at once.
func (c *Client) handshake(tc *tls.Conn, w *wire, deadline time.Time, resp *h1.Response) error {
	end := deadline
	if c.cfg.HandshakeTimeout > 0 {
		if hs := time.Now().Add(c.cfg.HandshakeTimeout); end.IsZero() || hs.Before(end) {
			end = hs
		}
	}
	if err := w.SetDeadline(end); err != nil {
		return err
	}
	c.g.Use(&conn{nc: w}) // for Abort: its deadline unblocks the handshake
	defer c.g.Use(nil)
	if c.g.Aborted() {
		return h1.ErrAborted
	}
	start := time.Now()
	err := c.aside(tc.Handshake)
	resp.TLS = time.Since(start)
	if err != nil {
		resp.Sent, resp.Received = w.written, w.read
		return &h1.HandshakeError{Err: err}
	}
	return nil
}

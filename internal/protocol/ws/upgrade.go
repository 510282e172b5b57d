package ws

import (
	"context"
	"crypto/tls"
	"net"
	"sync"

	"github.com/loadlens/loadlens/internal/protocol"
)

// upgradeConn is a session's connection. Until its first read it holds
// what is written (the upgrade request) in a pooled buffer and sends it
// whole at that read: net/http writes a request to a connection that is
// not an io.ByteWriter through a 4 KiB bufio.Writer of its own, garbage
// that 10,000 sessions opening at once left resident (41 MB, as much as
// they hold) while a run of idle sessions has no collection.
//
// Before the first read one goroutine (the handshake's) uses it; after,
// the request sent, Read and Write pass through and handshaking never
// changes again.
type upgradeConn struct {
	net.Conn
	handshaking bool
	req         *[]byte  // the request written so far, from reqBuffers
	dl          *dialing // the session's, told when the request is sent; nil without one
}

// reqBuffers hold upgrade requests between their writing and their send.
var reqBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// maxPooledRequest bounds the buffers kept: a request with large headers
// is sent and its buffer dropped.
const maxPooledRequest = 16 << 10

func newUpgradeConn(ctx context.Context, c net.Conn) *upgradeConn {
	dl, _ := ctx.Value(dialingKey{}).(*dialing)
	return &upgradeConn{Conn: c, handshaking: true, dl: dl}
}

// Write holds p while handshaking, else writes it.
func (c *upgradeConn) Write(p []byte) (int, error) {
	if !c.handshaking {
		return c.Conn.Write(p)
	}
	if c.req == nil {
		c.req = reqBuffers.Get().(*[]byte)
	}
	*c.req = append(*c.req, p...)
	return len(p), nil
}

// WriteByte makes the connection an io.ByteWriter, which net/http writes
// a request to without a bufio.Writer of its own.
func (c *upgradeConn) WriteByte(b byte) error {
	_, err := c.Write([]byte{b})
	return err
}

// Read sends the request held, once, then reads.
func (c *upgradeConn) Read(p []byte) (int, error) {
	if c.handshaking {
		if err := c.flush(); err != nil {
			return 0, err
		}
	}
	return c.Conn.Read(p)
}

// flush sends the request held and ends the handshake's buffering.
func (c *upgradeConn) flush() error {
	c.handshaking = false
	if c.req == nil {
		return nil
	}
	_, err := c.Conn.Write(*c.req)
	if cap(*c.req) <= maxPooledRequest {
		*c.req = (*c.req)[:0]
		reqBuffers.Put(c.req)
	}
	c.req = nil
	if c.dl != nil && c.dl.vu != nil {
		c.dl.vu.Written() // waiting for the answer, it holds no place in the engine's start gate
	}
	return err
}

// dialWire returns a DialContext that counts into the Wire of the
// session whose handshake dials (a context value).
func dialWire(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialCounted(ctx, d, network, addr)
		if err != nil {
			return nil, err
		}
		return newUpgradeConn(ctx, c), nil
	}
}

// dialCounted dials for the session whose handshake dials (its dialing,
// a context value): counted into its Wire, and held where the session's
// end closes it.
func dialCounted(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	dl, ok := ctx.Value(dialingKey{}).(*dialing)
	if !ok {
		return d.DialContext(ctx, network, addr)
	}
	var dialled func(net.Conn)
	if dl.vu != nil {
		dialled = dl.vu.Dialing() // a dial or TLS handshake that hangs gives up the VU's place in the start gate
	}
	c, err := dl.wire.Dial(d)(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if dialled != nil {
		dialled(c)
	}
	if !dl.hold(c) {
		return nil, net.ErrClosed // the session ended while it dialled; cut says why
	}
	return c, nil
}

// dialing is what a session lends the step's one dialer through the
// handshake's context: the Wire its connection counts into, and the slot
// the connection goes in as soon as it is dialled, so that the session's
// end (the run's, a stall) closes it even while the library waits for the
// upgrade's answer, which it would otherwise wait for until the handshake
// timeout whatever the context.
type dialing struct {
	wire     *protocol.Wire
	vu       protocol.VU // the session's, told when its upgrade request is written
	mu       sync.Mutex
	conn     net.Conn
	closed   bool
	stopDial context.CancelFunc // cancels the dial while it runs
}

// reset empties the slot for a new session.
func (d *dialing) reset() {
	d.mu.Lock()
	d.conn, d.closed, d.vu, d.stopDial = nil, false, nil, nil
	d.mu.Unlock()
}

// start readies the slot for a session's dial, which stop cancels.
func (d *dialing) start(vu protocol.VU, stop context.CancelFunc) {
	d.mu.Lock()
	d.vu, d.stopDial = vu, stop
	d.mu.Unlock()
}

// dialed says the dial returned: closing no longer cancels it.
func (d *dialing) dialed() {
	d.mu.Lock()
	d.stopDial = nil
	d.mu.Unlock()
}

// hold keeps c, or closes it when the session has ended.
func (d *dialing) hold(c net.Conn) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		_ = c.Close()
		return false
	}
	d.conn = c
	return true
}

// close closes the connection held, and any dialled later, and cancels
// a dial under way.
func (d *dialing) close() {
	d.mu.Lock()
	c, stop := d.conn, d.stopDial
	d.closed = true
	d.mu.Unlock()
	if stop != nil {
		stop()
	}
	if c != nil {
		_ = c.Close()
	}
}

// dialTLS returns a DialTLSContext for wss:// that does what the
// library's own does (a TLS handshake for the URL's host, its name
// checked) over a counted connection, and buffers the upgrade request
// above TLS, as dialWire does below it.
func dialTLS(d *net.Dialer, cfg *tls.Config) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialCounted(ctx, d, network, addr)
		if err != nil {
			return nil, err
		}
		tc := cfg.Clone()
		if tc.ServerName == "" {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = addr
			}
			tc.ServerName = host
		}
		conn := tls.Client(c, tc)
		if err := conn.HandshakeContext(ctx); err != nil {
			_ = c.Close()
			return nil, err
		}
		return newUpgradeConn(ctx, conn), nil
	}
}

package protocol

import (
	"context"
	"net"
	"sync/atomic"
)

// Wire counts the bytes a session's connections read and wrote as they
// cross the socket (handshake, framing and TLS records included), as the
// HTTP path counts a request's: what the target and the network carried.
// Reads and writes may come from other goroutines (net/http's, a
// scheduled sender), hence atomics.
type Wire struct{ read, written atomic.Int64 }

// Mark returns the bytes read and written so far, to subtract at a
// session's end.
func (w *Wire) Mark() (read, written int64) { return w.read.Load(), w.written.Load() }

// Dial returns d's DialContext whose connections count into w.
func (w *Wire) Dial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countedConn{Conn: c, w: w}, nil
	}
}

// countedConn is a connection counting into w.
type countedConn struct {
	net.Conn
	w *Wire
}

// NetConn is the connection counted, for the engine's reading of its
// socket.
func (c *countedConn) NetConn() net.Conn { return c.Conn }

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.w.read.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.w.written.Add(int64(n))
	return n, err
}

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
	g ReadGauge
}

// ReadState is the connection's ReadGauge, for the engine's start gate.
func (c *countedConn) ReadState() (calls uint64, bytes int64) { return c.g.ReadState() }

// NetConn is the connection counted, for the engine's reading of its
// socket.
func (c *countedConn) NetConn() net.Conn { return c.Conn }

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.g.Read(c.Conn, p)
	c.w.read.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.w.written.Add(int64(n))
	return n, err
}

// ReadGauge is what a connection's wrapper tells of its reads from the
// socket, for the engine's start gate: a VU that has waited a whole grace
// in one read, with everything its peer sent already read, waits for a
// peer that stalled (a Server Hello and then nothing) and gives up its
// place. Atomics: the gate reads it from a timer's goroutine.
type ReadGauge struct {
	calls atomic.Uint64 // reads begun plus reads ended: odd while one waits
	bytes atomic.Int64  // what they returned
}

// Read reads p from c, counted.
func (g *ReadGauge) Read(c net.Conn, p []byte) (int, error) {
	g.calls.Add(1)
	n, err := c.Read(p)
	g.bytes.Add(int64(n))
	g.calls.Add(1)
	return n, err
}

// ReadState returns the reads begun plus those ended (odd while one is
// under way; the same odd value twice: the same read) and the bytes they
// returned, read in that order so that a read ending in between shows as
// a changed count.
func (g *ReadGauge) ReadState() (calls uint64, bytes int64) {
	bytes = g.bytes.Load()
	return g.calls.Load(), bytes
}

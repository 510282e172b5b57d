package engine

import (
	"context"
	"net"
	"sync/atomic"
)

// wireCount is the bytes a VU's net/http connections read and wrote.
// net/http reads and writes on its own goroutines, hence atomics.
type wireCount struct{ read, written atomic.Int64 }

// countedConn counts the bytes of one connection as they cross the socket,
// TLS records included: what the target and the network carried.
type countedConn struct {
	net.Conn
	n *wireCount
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.read.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.n.written.Add(int64(n))
	return n, err
}

// NetConn is the connection counted, for what reads its socket
// (connectWatch).
func (c *countedConn) NetConn() net.Conn { return c.Conn }

// toldDial returns dial, telling dialing (when not nil) as each dial
// starts and what it returns the connection dialled.
func toldDial(dial func(ctx context.Context, network, addr string) (net.Conn, error),
	dialing func() func(net.Conn)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if dialing == nil {
		return dial
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialled := dialing()
		c, err := dial(ctx, network, addr)
		if err == nil && dialled != nil {
			dialled(c)
		}
		return c, err
	}
}

// countingDial returns a dial function whose connections count into n.
func countingDial(d *net.Dialer, n *wireCount) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countedConn{Conn: c, n: n}, nil
	}
}

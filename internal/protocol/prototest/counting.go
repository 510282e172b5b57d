package prototest

import (
	"net"
	"sync/atomic"
	"time"
)

// Counts are the bytes a server's connections read and wrote: what it
// received from the clients and sent them, to set beside what a session
// says it sent and received.
type Counts struct{ Read, Written atomic.Int64 }

// CountBytes returns l, whose accepted connections count into the Counts.
func CountBytes(l net.Listener) (net.Listener, *Counts) {
	c := &Counts{}
	return &countingListener{Listener: l, c: c}, c
}

type countingListener struct {
	net.Listener
	c *Counts
}

func (l *countingListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: conn, c: l.c}, nil
}

type countingConn struct {
	net.Conn
	c *Counts
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.c.Read.Add(int64(n))
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.c.Written.Add(int64(n))
	return n, err
}

// WrittenAtLeast waits, up to limit, for the server's connections to have
// counted n bytes written, and returns what they counted: a connection
// counts a write after the write returns, by when the client may already
// have read it and ended its session.
func (c *Counts) WrittenAtLeast(n int64, limit time.Duration) int64 {
	return atLeast(&c.Written, n, limit)
}

// ReadAtLeast is WrittenAtLeast for the bytes the server read: a client's
// write returns before the server has read it.
func (c *Counts) ReadAtLeast(n int64, limit time.Duration) int64 {
	return atLeast(&c.Read, n, limit)
}

func atLeast(v *atomic.Int64, n int64, limit time.Duration) int64 {
	deadline := time.Now().Add(limit)
	for v.Load() < n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // polling a counter, bounded by the deadline
	}
	return v.Load()
}

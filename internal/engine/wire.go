package engine

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/protocol"
)

// wireCount is the bytes a VU's net/http connections read and wrote.
// net/http reads and writes on its own goroutines, hence atomics.
type wireCount struct {
	read, written atomic.Int64
	mu            sync.Mutex
	writing       int           // Writes under way: their bytes may be on the wire, not yet counted
	idle          chan struct{} // closed as writing drops to 0; nil while nobody waits
}

// settleWrites is how long a hop waits at most for its connections' writes
// under way to be counted: net/http writes a request on its own goroutine,
// which a busy host (load 15, -race) left unscheduled for up to 440 ms after
// the write's system call had returned, while the response came and went.
const settleWrites = time.Second

// beginWrite notes a Write under way.
func (w *wireCount) beginWrite() {
	w.mu.Lock()
	w.writing++
	w.mu.Unlock()
}

// endWrite counts a Write's bytes and notes its end.
func (w *wireCount) endWrite(n int) {
	w.written.Add(int64(n))
	w.mu.Lock()
	if w.writing--; w.writing == 0 && w.idle != nil {
		close(w.idle)
		w.idle = nil
	}
	w.mu.Unlock()
}

// settledWritten returns the bytes written once no Write is under way, or
// after wait: a Write whose bytes the peer read may not have been counted
// when the response it answered was (a reset mid-response: Sent 0 for a
// request the server read, 6 samples of 889). A Write that stays blocked
// is on a connection net/http closes, or one whose peer stopped reading.
func (w *wireCount) settledWritten(wait time.Duration) int64 {
	w.mu.Lock()
	if w.writing == 0 {
		w.mu.Unlock()
		return w.written.Load()
	}
	if w.idle == nil {
		w.idle = make(chan struct{})
	}
	idle := w.idle
	w.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	}
	return w.written.Load()
}

// countedConn counts the bytes of one connection as they cross the socket,
// TLS records included: what the target and the network carried.
type countedConn struct {
	net.Conn
	n *wireCount
	g protocol.ReadGauge // this connection's reads, for connectWatch
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.g.Read(c.Conn, p)
	c.n.read.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	c.n.beginWrite()
	n, err := c.Conn.Write(p)
	c.n.endWrite(n)
	return n, err
}

// NetConn is the connection counted, for what reads its socket
// (connectWatch).
func (c *countedConn) NetConn() net.Conn { return c.Conn }

// ReadState is the connection's reads (protocol.ReadGauge), for
// connectWatch.
func (c *countedConn) ReadState() (calls uint64, bytes int64) { return c.g.ReadState() }

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

// countingDial returns a dial function whose connections, dialled by
// dial, count into n.
func countingDial(dial func(ctx context.Context, network, addr string) (net.Conn, error), n *wireCount) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countedConn{Conn: c, n: n}, nil
	}
}

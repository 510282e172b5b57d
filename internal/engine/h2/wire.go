package h2

import (
	"net"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
)

// wire is the socket, counting what it carries; for the engine's start
// gate it tells its reads as h1's does (ReadState, NetConn). It reads and
// writes by raw system calls when it can (h1.RawIO: no wake of the
// runtime's sysmon). Under TLS it counts the records it handed crypto/tls
// and, as far as it can tell, those crypto/tls took (see conn.quiet);
// while hold is set, Write keeps what it is given in held, for conn.send.
type wire struct {
	net.Conn
	read, written int64
	calls         atomic.Uint64 // reads begun plus reads ended
	bytes         atomic.Int64
	raw           h1.RawIO
	secure        bool
	rec           h1.RecordCursor
	recs          uint64 // whole TLS records read
	taken         uint64 // of them, those crypto/tls is known to have taken (see taking)
	hold          bool
	held          []byte
}

// newWire wraps the dialled connection nc; secure counts TLS records.
// clk times SendWait's writes.
func newWire(nc net.Conn, secure bool, clk *h1.Clock) *wire {
	w := &wire{Conn: nc, secure: secure}
	if _, ok := nc.(*net.TCPConn); ok { // a wrapper's own Read and Write (a Dial's) still run
		w.raw.Init(nc)
	}
	w.raw.UseClock(clk)
	return w
}

func (w *wire) Read(p []byte) (int, error) {
	if w.secure && w.rec.Whole() {
		w.taken = w.recs // crypto/tls reads at a record's end: it took every record it had
	}
	w.calls.Add(1)
	var n int
	var err error
	if w.raw.OK() {
		n, err = w.raw.Read(p)
	} else {
		n, err = w.Conn.Read(p)
	}
	w.bytes.Add(int64(n))
	w.calls.Add(1)
	w.read += int64(n)
	if w.secure {
		w.recs += uint64(w.rec.Records(p[:n]))
	}
	return n, err
}

func (w *wire) Write(p []byte) (int, error) {
	if w.hold {
		w.held = append(w.held, p...)
		return len(p), nil
	}
	var n int
	var err error
	if w.raw.OK() {
		n, err = w.raw.Write(p)
	} else {
		n, err = w.Conn.Write(p)
	}
	w.written += int64(n)
	return n, err
}

// taking notes a Read of crypto/tls's that returned bytes, the one before
// having left it none (fillReader): it took at least one record.
func (w *wire) taking() {
	if w.taken < w.recs {
		w.taken++
	}
}

// tlsEmpty reports whether crypto/tls holds no record it read: it took as
// many as the wire handed it, and no part of one waits.
func (w *wire) tlsEmpty() bool { return w.taken == w.recs && w.rec.Whole() }

// sendWait writes p and waits for the answer in one (h1.RawIO.SendWait);
// at is when p went out, zero when written was not called: nothing was
// written because bytes or a close came first (stale), or the socket took
// only part, and the rest was written as Write does.
func (w *wire) sendWait(p []byte, written func()) (at time.Time, stale bool, err error) {
	sent, at, stale, err := w.raw.SendWait(p, written)
	w.written += int64(sent)
	if stale || err != nil || !at.IsZero() {
		return at, stale, err
	}
	_, err = w.Write(p[sent:])
	return at, false, err
}

// NetConn is the socket, for the engine's start gate.
func (w *wire) NetConn() net.Conn { return w.Conn }

// ReadState returns the reads begun plus ended and the bytes they returned.
func (w *wire) ReadState() (calls uint64, bytes int64) {
	bytes = w.bytes.Load()
	return w.calls.Load(), bytes
}

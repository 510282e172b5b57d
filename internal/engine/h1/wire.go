package h1

import (
	"net"
	"sync/atomic"
	"syscall"
)

// wire is the TCP connection under a TLS connection. It counts the bytes
// the socket carries (TLS records and handshake: what the network and the
// target saw, as net/http's counting connection does), and it hands
// crypto/tls at most one TLS record per Read: bytes read past the end of
// the record being read wait in extra. crypto/tls thus never buffers a
// record that no Read asked for, so what arrived on an idle connection is
// either in extra or still in the socket, where the idle check can see it.
type wire struct {
	net.Conn             // the TCP connection
	read, written int64  // bytes the socket carried
	extra         []byte // bytes read past the record being read; extra[off:] are unread
	off           int    // start of the unread part of extra
	rec           recordCursor
	poll          bool // reads never wait: the idle check (see pollRead)
	pr            pollReader
	raw           rawIO // the socket's reads and writes (see rawIO)
	gauge         readGauge
}

// NetConn is the TCP connection, for what reads its socket's counts (the
// engine's start gate).
func (w *wire) NetConn() net.Conn { return w.Conn }

// ReadState returns the socket reads begun plus those ended (odd while one
// waits: a handshake waiting for its server) and the bytes they returned,
// for the engine's start gate (Request.OnDial).
func (w *wire) ReadState() (calls uint64, bytes int64) {
	bytes = w.gauge.bytes.Load() // first: a read ending before calls is read shows as a changed count
	return w.gauge.calls.Load(), bytes
}

// readGauge counts a wire's socket reads; atomics, as the start gate reads
// them from a timer's goroutine.
type readGauge struct {
	calls atomic.Uint64
	bytes atomic.Int64
}

func newWire(nc net.Conn) *wire {
	w := &wire{Conn: nc}
	w.pr.init(nc)
	if sc, ok := nc.(syscall.Conn); ok {
		w.raw.init(nc, sc)
	}
	return w
}

// Read returns bytes of the TLS record being read, from extra first.
func (w *wire) Read(p []byte) (int, error) {
	if w.off < len(w.extra) {
		n := copy(p, w.extra[w.off:])
		n = w.rec.cut(p[:n])
		w.off += n
		if w.off == len(w.extra) {
			w.extra, w.off = w.extra[:0], 0
		}
		w.read += int64(n)
		return n, nil
	}
	var n int
	var err error
	w.gauge.calls.Add(1)
	if w.poll {
		n, err = w.pr.read(p)
	} else if w.raw.ok() {
		n, err = w.raw.read(p)
	} else {
		n, err = w.Conn.Read(p)
	}
	w.gauge.bytes.Add(int64(n))
	w.gauge.calls.Add(1)
	if n > 0 {
		if c := w.rec.cut(p[:n]); c < n {
			w.extra = append(w.extra[:0], p[c:n]...) // the next record's bytes, for the next Read
			w.off = 0
			n = c
		}
	}
	w.read += int64(n)
	return n, err
}

func (w *wire) Write(p []byte) (int, error) {
	var n int
	var err error
	if w.raw.ok() {
		n, err = w.raw.write(p)
	} else {
		n, err = w.Conn.Write(p)
	}
	w.written += int64(n)
	return n, err
}

// pending reports bytes read from the socket that crypto/tls has not asked for.
func (w *wire) pending() bool { return w.off < len(w.extra) }

// recordCursor follows the TLS record framing of a byte stream: a 5-byte
// header whose last two bytes are the length of the body that follows.
type recordCursor struct {
	hdr  [5]byte
	hn   int // header bytes seen of the record being read
	left int // body bytes still to come of the record being read
}

// cut advances over b as far as the end of the record being read (the one
// b's first byte belongs to) and returns how many bytes of b that is.
// Bytes past it belong to later records and are not consumed.
func (rc *recordCursor) cut(b []byte) int {
	i := 0
	for i < len(b) {
		if rc.left > 0 {
			k := min(rc.left, len(b)-i)
			i += k
			rc.left -= k
			if rc.left == 0 {
				return i
			}
			continue
		}
		k := copy(rc.hdr[rc.hn:], b[i:])
		rc.hn += k
		i += k
		if rc.hn == len(rc.hdr) {
			rc.hn = 0
			rc.left = int(rc.hdr[3])<<8 | int(rc.hdr[4])
			if rc.left == 0 {
				return i // an empty record ends with its header
			}
		}
	}
	return i
}

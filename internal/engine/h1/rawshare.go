package h1

import (
	"net"
	"syscall"
	"time"
)

// RawIO is a TCP socket's reads and writes by raw system calls (see
// rawIO), for another client of this package's kind (the lean HTTP/2
// one). The zero value has no socket: OK is false.
type RawIO struct{ r rawIO }

// Init takes nc's socket, if it has one.
func (r *RawIO) Init(nc net.Conn) {
	if sc, ok := nc.(syscall.Conn); ok {
		r.r.init(nc, sc)
	}
}

// OK reports whether there is a socket to use.
func (r *RawIO) OK() bool { return r.r.ok() }

// UseClock makes SendWait time the write with k.
func (r *RawIO) UseClock(k *Clock) { r.r.useClock(k) }

// Read reads into p as net.Conn's Read does, with its errors.
func (r *RawIO) Read(p []byte) (int, error) { return r.r.read(p) }

// Write writes all of p as net.Conn's Write does, with its errors.
func (r *RawIO) Write(p []byte) (int, error) { return r.r.write(p) }

// SendWait first looks, as the idle check does, for bytes or a close that
// arrived unread (stale: then nothing is written), then writes req and
// waits until the socket is readable, within one RawConn.Read: the
// caller's next read finds the response instead of an empty socket.
// written, when set, is called once req went out whole, before the wait;
// wrote is when. A socket that took only part of req (wrote zero, err
// nil) leaves req[sent:] to Write. The wait's end, a deadline's too, is
// the next read's to report.
func (r *RawIO) SendWait(req []byte, written func()) (sent int, wrote time.Time, stale bool, err error) {
	return r.r.sendWait(req, written)
}

// RecordCursor follows the TLS record framing of a byte stream (see
// recordCursor), for a connection that counts the records it carried.
type RecordCursor struct{ rc recordCursor }

// Records advances over b and returns how many records ended in it.
func (c *RecordCursor) Records(b []byte) (n int) {
	for len(b) > 0 {
		k := c.rc.cut(b)
		if c.Whole() {
			n++
		}
		b = b[k:]
	}
	return n
}

// Whole reports whether the bytes seen end at a record's end.
func (c *RecordCursor) Whole() bool { return c.rc.hn == 0 && c.rc.left == 0 }

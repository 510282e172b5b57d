package h2

import (
	"io"
	"net"
	"time"
)

// send writes the queued frames, the whole request, as flush does. When
// nothing waits above the socket (quiet) it writes them inside the wait
// for the answer (wire.sendWait), after the idle check if it is owed: the
// read that follows finds the answer instead of first an empty socket,
// and written is called there, before the wait; at is when. at is zero
// when written was not called.
func (cn *conn) send(written func()) (at time.Time, err error) {
	if len(cn.out.b) == 0 || !cn.quiet() {
		return time.Time{}, cn.flush()
	}
	w, p := cn.wire, cn.out.b
	cn.out.b = cn.out.b[:0]   // p keeps the bytes: nothing is queued before they are written
	if cn.nc != net.Conn(w) { // under TLS: its records, which the wire keeps
		w.hold, w.held = true, w.held[:0]
		_, err = cn.nc.Write(p)
		w.hold, p = false, w.held
		if err != nil {
			cn.broken = true
			return time.Time{}, err
		}
	}
	at, stale, err := w.sendWait(p, written)
	if stale { // bytes or a close came while idle: nothing went out
		if cn.unchecked && cn.idle.Closed() {
			return time.Time{}, errStale
		}
		_, err = w.Write(p) // bytes: the read after the write takes them, as before
	}
	cn.unchecked = false
	if err != nil {
		cn.broken = true
	}
	return at, err
}

// quiet reports whether nothing the socket carried waits above it, so a
// read has only the socket to wait for: no frame bytes buffered, no
// decrypted bytes crypto/tls kept (its last Read did not fill the buffer
// it was given), and no record it read and did not take (see wire).
func (cn *conn) quiet() bool {
	return cn.wire.raw.OK() && cn.br.Buffered() == 0 && !cn.in.full && cn.wire.tlsEmpty()
}

// fillReader reads r, noting whether its last Read filled the buffer, and
// telling w (under TLS) of each Read that took a record.
type fillReader struct {
	r    io.Reader
	w    *wire
	full bool // r may hold more
}

func (f *fillReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if n > 0 && !f.full {
		f.w.taking()
	}
	f.full = n == len(p)
	return n, err
}

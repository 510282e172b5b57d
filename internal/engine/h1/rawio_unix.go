//go:build unix

package h1

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// rawIO reads and writes a plain TCP connection's socket with raw system
// calls, waiting in the netpoller as net.Conn does (deadlines included).
// A syscall.Syscall tells the runtime it may block, and the first one after
// the process was idle wakes the runtime's monitor thread (sysmon) from its
// deep sleep; sysmon then polls every 20 µs until the process is idle
// again. An open-model run goes idle between requests, so that was two
// wakes of a second thread per request: 40 % of loadlens's context switches
// at 5,000 req/s on one core. These calls on a non-blocking socket never
// block, so the runtime need not know.
type rawIO struct {
	rc    syscall.RawConn
	nc    net.Conn
	readF func(fd uintptr) bool // made once per connection, so a call allocates nothing
	wrF   func(fd uintptr) bool
	p     []byte
	n     int
	errno syscall.Errno
	x     exchangeIO // sendRecv's state
}

// exchangeIO is the state of one sendRecv: the request to write, then the
// read of the response's first bytes.
type exchangeIO struct {
	f       func(fd uintptr) bool // made once per connection, so a call allocates nothing
	req     []byte                // what is still to write
	sent    int
	check   bool // look for bytes or a close that arrived while idle, before writing
	stale   bool // the check found some
	wrote   bool // the request went out whole: later calls read
	wait    bool // sendWait's: once readable, return without reading
	wroteAt time.Time
	clk     *Clock // the connection's
	written func() // told once the request went out, before the wait for the response
	// space gives the read its buffer when sendRecv had none: taken once
	// the response is readable, not while the request waits for it.
	space func() []byte
}

// useClock makes sendRecv time the write with k.
func (r *rawIO) useClock(k *Clock) { r.x.clk = k }

// useSpace makes sendRecv call f for its read's buffer when given none;
// f is made once per connection, so a call allocates nothing.
func (r *rawIO) useSpace(f func() []byte) { r.x.space = f }

func (r *rawIO) init(nc net.Conn, sc syscall.Conn) {
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	r.rc, r.nc = rc, nc
	r.readF = func(fd uintptr) bool {
		n, e := sysRead(fd, r.p)
		for e == syscall.EINTR { // retried at once: waiting for readiness could miss data already there
			n, e = sysRead(fd, r.p)
		}
		r.n, r.errno = n, e
		return e != syscall.EAGAIN
	}
	r.wrF = func(fd uintptr) bool {
		for len(r.p) > 0 {
			n, e := sysWrite(fd, r.p)
			if e == syscall.EAGAIN {
				return false // wait until writable, then write the rest
			}
			if e == syscall.EINTR {
				continue
			}
			if e != 0 {
				r.errno = e
				return true
			}
			r.n += int(n)
			r.p = r.p[n:]
		}
		return true
	}
	r.x.f = func(fd uintptr) bool {
		if r.x.wrote {
			if r.x.wait {
				return true // readable: the caller's own read takes what came
			}
			if r.p == nil {
				r.p = r.x.space()
			}
			return r.readF(fd)
		}
		if r.x.check && !peekQuiet(fd) {
			r.x.stale = true
			return true
		}
		for len(r.x.req) > 0 {
			n, e := sysWrite(fd, r.x.req)
			if e == syscall.EINTR {
				continue
			}
			if e != 0 {
				r.errno = e // EAGAIN too: the caller writes the rest as write does
				return true
			}
			r.x.sent += n
			r.x.req = r.x.req[n:]
		}
		r.x.wrote, r.x.wroteAt = true, r.x.clk.Now()
		if r.x.written != nil {
			r.x.written()
		}
		// RawRead cleared the read readiness before this call and the response
		// cannot come before its request, so its edge is not lost: wait for it
		// now rather than read what cannot be there yet (one EAGAIN read less).
		return false
	}
}

// peekQuiet reports whether nothing arrived on an idle socket: a
// non-blocking MSG_PEEK finds no byte, no close and no error. Raw: it never
// blocks (see rawIO).
func peekQuiet(fd uintptr) bool {
	var b [1]byte
	_, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&b[0])), 1, syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
	return e == syscall.EAGAIN
}

// ok reports whether the connection has a socket to use.
func (r *rawIO) ok() bool { return r.rc != nil }

// read reads into p as net.Conn's Read does, with its error types.
func (r *rawIO) read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p, r.n, r.errno = p, 0, 0
	err := r.rc.Read(r.readF)
	r.p = nil
	if err != nil {
		return 0, r.opError("read", err)
	}
	if r.errno != 0 {
		return 0, r.opError("read", os.NewSyscallError("read", r.errno))
	}
	if r.n == 0 {
		return 0, io.EOF
	}
	return r.n, nil
}

// sendRecv writes req and reads the response's first bytes into p within
// one RawConn.Read, so the read is tried only once the socket is readable;
// a nil p is asked of useSpace's function then. written, when set, is
// called once req went out whole, before the wait for the response.
// With check it first looks, as the idle check does, for bytes or a close
// that arrived while the connection was idle, and then writes nothing
// (stale). sent is how much of req went out and wrote when the last of it
// did; a write the socket could not take whole (wrote false, err nil)
// leaves the rest, and the reading, to write and read.
func (r *rawIO) sendRecv(req, p []byte, check bool, written func()) (sent int, wrote time.Time, n int, stale bool, err error) {
	r.x.req, r.x.sent, r.x.check, r.x.stale, r.x.wrote, r.x.written = req, 0, check, false, false, written
	r.p, r.n, r.errno = p, 0, 0
	err = r.rc.Read(r.x.f)
	r.p, r.x.req, r.x.written = nil, nil, nil
	sent, stale = r.x.sent, r.x.stale
	if r.x.wrote {
		wrote = r.x.wroteAt
	}
	switch {
	case stale:
		return sent, wrote, 0, true, nil
	case !r.x.wrote && err == nil && r.errno == syscall.EAGAIN:
		return sent, wrote, 0, false, nil // the socket's buffer is full: the rest by write
	case !r.x.wrote && err == nil:
		return sent, wrote, 0, false, r.opError("write", os.NewSyscallError("write", r.errno))
	case !r.x.wrote:
		return sent, wrote, 0, false, r.opError("write", err)
	case err != nil:
		return sent, wrote, 0, false, r.opError("read", err)
	case r.errno != 0:
		return sent, wrote, 0, false, r.opError("read", os.NewSyscallError("read", r.errno))
	case r.n == 0:
		return sent, wrote, 0, false, io.EOF
	}
	return sent, wrote, r.n, false, nil
}

// sendWait is sendRecv with the idle check and without the read: it
// writes req and then waits, within the same RawConn.Read, until the
// socket is readable, for a caller whose read goes through another layer
// (crypto/tls): that read then finds the response's first bytes instead of
// an empty socket. The wait's own end (a deadline, Abort's too) is left to
// that read, which meets the same state and says it as before. stale, a
// partial write and the errors are sendRecv's.
func (r *rawIO) sendWait(req []byte, written func()) (sent int, wrote time.Time, stale bool, err error) {
	r.x.wait = true
	sent, wrote, _, stale, err = r.sendRecv(req, nil, true, written)
	r.x.wait = false
	if !wrote.IsZero() {
		return sent, wrote, false, nil
	}
	return sent, wrote, stale, err
}

// write writes all of p as net.Conn's Write does, with its error types.
func (r *rawIO) write(p []byte) (int, error) {
	r.p, r.n, r.errno = p, 0, 0
	err := r.rc.Write(r.wrF)
	r.p = nil
	if err == nil && r.errno != 0 {
		err = os.NewSyscallError("write", r.errno)
	}
	if err != nil {
		return r.n, r.opError("write", err)
	}
	return r.n, nil
}

// opError wraps err as net does: a *net.OpError, net.ErrClosed for a
// closed connection, os.ErrDeadlineExceeded (a timeout) for a deadline.
func (r *rawIO) opError(op string, err error) error {
	var raw *net.OpError
	if errors.As(err, &raw) {
		err = raw.Err // RawConn's own "raw-read": the message would name the op twice
	}
	if errors.Is(err, os.ErrClosed) {
		err = net.ErrClosed
	}
	return &net.OpError{Op: op, Net: "tcp", Source: r.nc.LocalAddr(), Addr: r.nc.RemoteAddr(), Err: err}
}

//go:build unix

package h1

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
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
}

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
	if errors.Is(err, os.ErrClosed) {
		err = net.ErrClosed
	}
	return &net.OpError{Op: op, Net: "tcp", Source: r.nc.LocalAddr(), Addr: r.nc.RemoteAddr(), Err: err}
}

//go:build unix

package h1

import (
	"io"
	"net"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// idleCheck looks, without blocking, for bytes or a close that arrived on
// an idle connection since its last response: net/http's Transport closes a
// connection on which anything arrives while no request is pending, and a
// request sent on it would read those bytes as its response.
type idleCheck struct {
	rc       syscall.RawConn
	deadline interface{ SetReadDeadline(time.Time) error } // the socket's, for resetWithin
	peek     func(fd uintptr) bool                         // made once per connection, so a check allocates nothing
	n        int
	err      error
	b        [1]byte
}

func (ic *idleCheck) init(sc syscall.Conn) {
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	ic.rc = rc
	ic.deadline, _ = sc.(interface{ SetReadDeadline(time.Time) error })
	ic.peek = func(fd uintptr) bool {
		// Raw: it never blocks, and a syscall.Syscall would wake the runtime's sysmon (see rawIO).
		n, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(&ic.b[0])), 1, syscall.MSG_PEEK|syscall.MSG_DONTWAIT, 0, 0)
		ic.n, ic.err = int(n), nil
		if e != 0 {
			ic.n, ic.err = 0, e
		}
		return true // never wait: this is a poll
	}
}

// quiet reports whether nothing arrived: no byte, no close, no error.
// Connections without a file descriptor are taken as quiet.
func (ic *idleCheck) quiet() bool {
	if ic.rc == nil {
		return true
	}
	if err := ic.rc.Read(ic.peek); err != nil {
		return false
	}
	return ic.err == syscall.EAGAIN
}

// resetWithin waits up to d for the peer to reset the connection, after a
// read found it closed, and reports whether it did and whether the reset
// came after the peer's close (FIN): the reset a request gets that reached
// a socket the server had closed. A server that read the request and
// closed sends no reset; one that resets (SO_LINGER 0, or a close with the
// request unread) sends it without a FIN first, and over TLS a
// close_notify is no FIN. The wait ends at the first socket error or at d;
// the connection is dropped after it.
func (ic *idleCheck) resetWithin(d time.Duration) (reset, afterClose bool) {
	if ic.rc == nil || ic.deadline == nil {
		return false, false
	}
	if ic.deadline.SetReadDeadline(time.Now().Add(d)) != nil {
		return false, false
	}
	var errno syscall.Errno
	soError := func(fd uintptr) bool {
		e, _ := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_ERROR)
		errno = syscall.Errno(e)
		return errno != 0 // reading it cleared it: stop at the first
	}
	if ic.rc.Read(soError) != nil {
		ic.rc.Control(func(fd uintptr) { soError(fd) }) // the deadline may be seen before a reset that came in time
	}
	if !isReset(errno) {
		return false, false
	}
	return true, resetAfterClose(errno)
}

// closed reports whether the peer closed or reset the connection: a
// non-blocking peek finds its end, not bytes. The idle check found it
// stale; closed says whether that was the server's idle close.
func (ic *idleCheck) closed() bool {
	if ic.rc == nil {
		return false
	}
	if err := ic.rc.Read(ic.peek); err != nil {
		return false
	}
	return ic.n == 0 && (ic.err == nil || isReset(ic.err))
}

// pollReader reads from a socket without waiting, for the idle check of an
// https connection: crypto/tls reads through it, and gets errWouldBlock
// when the socket is empty.
type pollReader struct {
	rc  syscall.RawConn
	fn  func(fd uintptr) bool // made once per connection, so a read allocates nothing
	p   []byte
	n   int
	err error
}

func (pr *pollReader) init(nc net.Conn) {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	pr.rc = rc
	pr.fn = func(fd uintptr) bool {
		pr.n, pr.err = syscall.Read(int(fd), pr.p)
		return true // never wait: this is a poll
	}
}

// read reads what the socket holds into p, or returns errWouldBlock.
// Without a file descriptor it reads nothing.
func (pr *pollReader) read(p []byte) (int, error) {
	if pr.rc == nil {
		return 0, errWouldBlock
	}
	pr.p = p
	err := pr.rc.Read(pr.fn)
	pr.p = nil
	switch {
	case err != nil:
		return 0, err // a deadline that passed (Abort), a closed connection
	case pr.err == syscall.EAGAIN:
		return 0, errWouldBlock
	case pr.err != nil:
		return 0, os.NewSyscallError("read", pr.err)
	case pr.n <= 0:
		return 0, io.EOF
	}
	return pr.n, nil
}

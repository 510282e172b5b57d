//go:build unix

package h1

import "syscall"

// idleCheck looks, without blocking, for bytes or a close that arrived on
// an idle connection since its last response: net/http's Transport closes a
// connection on which anything arrives while no request is pending, and a
// request sent on it would read those bytes as its response.
type idleCheck struct {
	rc   syscall.RawConn
	peek func(fd uintptr) bool // made once per connection, so a check allocates nothing
	n    int
	err  error
	b    [1]byte
}

func (ic *idleCheck) init(sc syscall.Conn) {
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	ic.rc = rc
	ic.peek = func(fd uintptr) bool {
		ic.n, _, ic.err = syscall.Recvfrom(int(fd), ic.b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
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

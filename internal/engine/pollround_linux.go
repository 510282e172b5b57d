package engine

import (
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pollRound waits until the Go runtime has polled the network once: an
// eventfd in the netpoller, written as the wait begins, is reported by the
// next poll, which the runtime makes once it has no runnable goroutine
// left, with every socket that became ready by then.
type pollRound struct {
	f     *os.File
	rc    syscall.RawConn
	fn    func(fd uintptr) bool // made once, so a round allocates nothing
	armed bool
	one   uint64
	buf   [8]byte
}

// newPollRound returns a pollRound, or nil when the kernel refuses an eventfd.
func newPollRound() *pollRound {
	fd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		return nil
	}
	p := &pollRound{f: os.NewFile(uintptr(fd), "eventfd"), one: 1}
	if p.rc, err = p.f.SyscallConn(); err != nil {
		p.f.Close()
		return nil
	}
	p.fn = func(fd uintptr) bool {
		if !p.armed {
			// Written after RawConn.Read cleared the readiness it had seen,
			// so the poll that reports this write is the next one.
			p.armed = true
			_, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p.one)), 8)
			return e != 0 // a failed write would never be reported
		}
		_, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p.buf[0])), 8)
		if e == syscall.EAGAIN || e == syscall.EINTR {
			return false
		}
		p.armed = false
		return true
	}
	return p
}

// round waits for the next poll; false means the event is closed.
func (p *pollRound) round() bool {
	p.armed = false
	return p.rc.Read(p.fn) == nil
}

// close releases the eventfd; a round under way returns false.
func (p *pollRound) close() { p.f.Close() }

package engine

import (
	"context"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// alarm wakes the open-model scheduler at an arrival's intended start. On
// Linux a time.Timer due within a millisecond fires up to a millisecond
// late when the process is otherwise idle (the runtime's netpoller sleeps
// in whole milliseconds), and the open model adds that delay to every
// latency it reports. A timerfd in the netpoller wakes it to within the
// kernel's timer slack (50 µs).
//
// Its system calls are raw: they never block, and a syscall.Syscall after
// the process was idle wakes the runtime's sysmon thread (see h1's rawIO).
type alarm struct {
	f      *os.File
	fd     int
	rc     syscall.RawConn
	readF  func(fd uintptr) bool // made once, so a wait allocates nothing
	errno  syscall.Errno
	spec   unix.ItimerSpec
	arm    *unix.ItimerSpec // the expiry the next wait arms, first thing in readF
	buf    [8]byte
	stop   func() bool
	ctx    context.Context
	coarse *time.Timer // where the timerfd is not available
}

// newAlarm returns an alarm; it falls back to a time.Timer when the kernel
// refuses a timerfd.
func newAlarm() *alarm {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return &alarm{coarse: time.NewTimer(time.Hour)}
	}
	a := &alarm{f: os.NewFile(uintptr(fd), "timerfd"), fd: fd}
	rc, err := a.f.SyscallConn()
	if err != nil {
		a.f.Close()
		return &alarm{coarse: time.NewTimer(time.Hour)}
	}
	a.rc = rc
	a.readF = func(fd uintptr) bool {
		if a.arm != nil {
			// Armed here, after RawConn.Read cleared the readiness it had
			// seen, so the expiry's edge wakes the wait: a read before it
			// would only say EAGAIN.
			_, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, fd, 0, uintptr(unsafe.Pointer(a.arm)), 0, 0, 0)
			a.arm, a.errno = nil, e
			return e != 0
		}
		_, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&a.buf[0])), uintptr(len(a.buf)))
		a.errno = e
		return e != syscall.EAGAIN && e != syscall.EINTR
	}
	return a
}

// wait sleeps until at; false means ctx ended first.
func (a *alarm) wait(ctx context.Context, at time.Time) bool {
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err() == nil
	}
	if a.coarse != nil {
		return coarseWait(ctx, a.coarse, d)
	}
	if a.ctx != ctx {
		if a.stop != nil {
			a.stop()
		}
		a.ctx = ctx
		a.f.SetReadDeadline(time.Time{})
		a.stop = context.AfterFunc(ctx, func() { a.f.SetReadDeadline(time.Unix(1, 0)) })
	}
	a.spec = unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	a.arm, a.errno = &a.spec, 0
	if err := a.rc.Read(a.readF); err != nil || a.errno != 0 {
		a.arm = nil
		return ctx.Err() == nil && coarseSleep(ctx, time.Until(at))
	}
	return ctx.Err() == nil
}

// close releases the timerfd.
func (a *alarm) close() {
	if a.stop != nil {
		a.stop()
	}
	if a.f != nil {
		a.f.Close()
	}
	if a.coarse != nil {
		a.coarse.Stop()
	}
}

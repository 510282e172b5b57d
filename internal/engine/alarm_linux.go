package engine

import (
	"context"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// alarm wakes the open-model scheduler at an arrival's intended start. On
// Linux a time.Timer due within a millisecond fires up to a millisecond
// late when the process is otherwise idle (the runtime's netpoller sleeps
// in whole milliseconds), and the open model adds that delay to every
// latency it reports. A timerfd in the netpoller wakes it to within the
// kernel's timer slack (50 µs).
type alarm struct {
	f      *os.File
	fd     int
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
	return &alarm{f: os.NewFile(uintptr(fd), "timerfd"), fd: fd}
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
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	if err := unix.TimerfdSettime(a.fd, 0, &spec, nil); err != nil {
		return coarseSleep(ctx, d)
	}
	if _, err := a.f.Read(a.buf[:]); err != nil {
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

//go:build !unix

package h1

import (
	"net"
	"syscall"
	"time"
)

// idleCheck is a no-op where a non-blocking peek is not available: only
// bytes already buffered keep a connection from being reused there.
type idleCheck struct{}

func (ic *idleCheck) init(sc syscall.Conn) {}

func (ic *idleCheck) quiet() bool { return true }

// resetWithin reports no reset where the socket's error cannot be read.
func (ic *idleCheck) resetWithin(time.Duration) (reset, afterClose bool) { return false, false }

// closed reports nothing where the socket cannot be peeked at.
func (ic *idleCheck) closed() bool { return false }

// pollReader reads nothing where a non-blocking read is not available: the
// idle check of an https connection then sees only what was buffered.
type pollReader struct{}

func (pr *pollReader) init(nc net.Conn) {}

func (pr *pollReader) read(p []byte) (int, error) { return 0, errWouldBlock }

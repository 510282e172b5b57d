//go:build !unix

package h1

import (
	"net"
	"syscall"
	"time"
)

// rawIO is unused where raw system calls are not available: the connection
// reads and writes through net.Conn.
type rawIO struct{}

func (r *rawIO) init(nc net.Conn, sc syscall.Conn) {}

func (r *rawIO) ok() bool { return false }

func (r *rawIO) useClock(k *Clock) {}

func (r *rawIO) useSpace(f func() []byte) {}

func (r *rawIO) read(p []byte) (int, error) { return 0, nil }

func (r *rawIO) write(p []byte) (int, error) { return 0, nil }

func (r *rawIO) sendRecv(req, p []byte, check bool, written func()) (sent int, wrote time.Time, n int, stale bool, err error) {
	return 0, time.Time{}, 0, false, nil
}

func (r *rawIO) sendWait(req []byte, written func()) (sent int, wrote time.Time, stale bool, err error) {
	return 0, time.Time{}, false, nil
}

package faultserver

import (
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Unaccepting returns a 127.0.0.1 address whose connects never complete:
// its listener has a backlog of 0 and is full, so the kernel drops further
// SYNs, as a host behind a firewall that drops packets would. It lasts
// until the test ends.
func Unaccepting(tb testing.TB) string {
	tb.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		tb.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		tb.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		tb.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(sa.(*syscall.SockaddrInet4).Port)
	for i := 0; i < 8; i++ { // fill the queue until a connect hangs
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return addr
		}
		tb.Cleanup(func() { c.Close() })
	}
	tb.Skip("cannot fill a listen queue on this system")
	return ""
}

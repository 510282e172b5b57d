package faultserver

import (
	"net"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// socketTimes returns how long ago c's socket last sent and last received
// data and whether bytes wait unread in it, as the kernel counts them (in
// ms); ok is false when it cannot tell.
func socketTimes(c net.Conn) (sentAgo, receivedAgo time.Duration, unread, ok bool) {
	sc, isSocket := c.(syscall.Conn)
	if !isSocket {
		return 0, 0, false, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, 0, false, false
	}
	cerr := rc.Control(func(fd uintptr) {
		info, err := unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
		if err != nil {
			return
		}
		n, _, err := unix.Recvfrom(int(fd), make([]byte, 1), unix.MSG_PEEK|unix.MSG_DONTWAIT)
		unread = err == nil && n > 0
		ms := time.Millisecond
		sentAgo, receivedAgo, ok = time.Duration(info.Last_data_sent)*ms, time.Duration(info.Last_data_recv)*ms, true
	})
	return sentAgo, receivedAgo, unread, cerr == nil && ok
}

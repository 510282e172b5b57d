package engine

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// socketSilent reports whether the TCP socket has sent (or queued) data
// and received none: its peer has not answered.
func socketSilent(rc syscall.RawConn) bool {
	var info *unix.TCPInfo
	var err error
	if cerr := rc.Control(func(fd uintptr) {
		info, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	}); cerr != nil || err != nil {
		return false
	}
	return info.Bytes_sent+uint64(info.Notsent_bytes) > 0 && info.Bytes_received == 0
}

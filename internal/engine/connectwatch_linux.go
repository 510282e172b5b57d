package engine

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// socketCounts returns the bytes the TCP socket has sent (or queued) and
// received, as the kernel counts them; ok is false when it cannot tell (a
// closed connection).
func socketCounts(rc syscall.RawConn) (sent, received uint64, ok bool) {
	var info *unix.TCPInfo
	var err error
	if cerr := rc.Control(func(fd uintptr) {
		info, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	}); cerr != nil || err != nil {
		return 0, 0, false
	}
	return info.Bytes_sent + uint64(info.Notsent_bytes), info.Bytes_received, true
}

//go:build unix

package engine

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// smallReceiveBuffers makes the dialer's sockets take at most a few
// kilobytes unread, so that a server whose write of more returned knows
// that the client read what came before (autotuning lets 32 MB wait).
func smallReceiveBuffers(d *net.Dialer) {
	d.Control = func(_, _ string, rc syscall.RawConn) error {
		var err error
		if cerr := rc.Control(func(fd uintptr) {
			err = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF, 16<<10)
		}); cerr != nil {
			return cerr
		}
		return err
	}
}

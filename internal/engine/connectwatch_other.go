//go:build !linux

package engine

import "syscall"

// socketSilent cannot tell without Linux's TCP_INFO counts: a connection
// dialled keeps its place in the start gate through its handshake.
func socketSilent(syscall.RawConn) bool { return false }

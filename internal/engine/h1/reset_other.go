//go:build unix && !linux

package h1

import "syscall"

// resetAfterClose reports false where the socket's error does not say
// whether the peer's close came before its reset: a request on such a
// connection is counted, and failed, rather than sent twice.
func resetAfterClose(syscall.Errno) bool { return false }

package h1

import "syscall"

// resetAfterClose reports the socket error a reset leaves when it came
// after the peer's close (FIN): Linux sets EPIPE for a reset received in
// CLOSE_WAIT, and ECONNRESET for one that came without a close first.
func resetAfterClose(e syscall.Errno) bool { return e == syscall.EPIPE }

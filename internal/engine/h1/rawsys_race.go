//go:build unix && race

package h1

import "syscall"

// Under the race detector the socket is read and written through package
// syscall, whose Read and Write tell the detector that what one side wrote
// before a write happened before what the other reads after it. Raw system
// calls say nothing, and every test whose server sets a value before
// answering was reported as a race.

// sysRead reads a non-blocking socket, with the race detector's annotations.
func sysRead(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Read(int(fd), p)
	return n, errnoOf(err)
}

// sysWrite writes a non-blocking socket, with the race detector's annotations.
func sysWrite(fd uintptr, p []byte) (int, syscall.Errno) {
	n, err := syscall.Write(int(fd), p)
	return n, errnoOf(err)
}

// errnoOf is err as the raw calls return it.
func errnoOf(err error) syscall.Errno {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return 0
}

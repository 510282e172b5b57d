//go:build unix

package engine

import "syscall"

// openFileLimit returns the process's open-file limit (RLIMIT_NOFILE, which
// Go raises to its hard limit at start-up); 0 when it cannot be read.
func openFileLimit() int64 {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil || l.Cur > 1<<40 {
		return 0
	}
	return int64(l.Cur)
}

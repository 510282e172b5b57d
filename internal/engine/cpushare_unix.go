//go:build unix && !linux

package engine

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used,
// twice: here the time its threads waited for a CPU cannot be read.
func processCPU() (used, asked time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	u := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return u, u, true
}

//go:build unix

package mock

import (
	"syscall"
	"time"
)

// processCPU returns the process's user and system CPU seconds.
func processCPU() (float64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds(), true
}

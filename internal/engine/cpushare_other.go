//go:build !linux

package engine

import (
	"time"

	"github.com/loadlens/loadlens/internal/proc"
)

// processCPU returns the CPU time (user and system) the process has used,
// twice: here the time its threads waited for a CPU cannot be read.
func processCPU() (used, asked time.Duration, ok bool) {
	u, ok := proc.CPU()
	return u, u, ok
}

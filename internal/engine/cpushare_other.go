//go:build !unix

package engine

import "time"

// processCPU cannot read the process's CPU time here.
func processCPU() (used, asked time.Duration, ok bool) { return 0, 0, false }

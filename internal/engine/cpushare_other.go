//go:build !unix

package engine

import "time"

// processCPU cannot read the process's CPU time here.
func processCPU() (time.Duration, bool) { return 0, false }

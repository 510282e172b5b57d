//go:build !unix

package dist

import "time"

// processCPU is unknown where getrusage is missing.
func processCPU() (time.Duration, bool) { return 0, false }

//go:build !linux

package app

import "time"

// threadsWait cannot read the threads' run-queue wait here.
func threadsWait() (time.Duration, bool) { return 0, false }

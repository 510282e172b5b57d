package engine

import (
	"runtime"
	"time"
)

// cpuEvery is the shortest window the pool policy judges the process's CPU over.
const cpuEvery = 100 * time.Millisecond

// cpuShare measures the share of its cores the process used (or, where
// that can be read, used and waited for) over the last window of at least
// cpuEvery. Only the scheduler goroutine uses it.
type cpuShare struct {
	at    time.Time
	used  time.Duration
	share float64
}

// get returns the share of the last whole window (negative until one has
// passed, or where the process's CPU time cannot be read).
func (c *cpuShare) get(now time.Time) float64 {
	if c.at.IsZero() {
		c.at, c.share = now, -1
		c.used, _ = processCPU()
		return c.share
	}
	if d := now.Sub(c.at); d >= cpuEvery {
		used, ok := processCPU()
		if !ok {
			return -1
		}
		c.share = max(float64(used-c.used), 0) / float64(d) / float64(runtime.GOMAXPROCS(0)) // a thread that exited takes its counts along
		c.at, c.used = now, used
	}
	return c.share
}

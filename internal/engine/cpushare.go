package engine

import (
	"runtime"
	"time"
)

// cpuEvery is the shortest window the pool policy judges the process's CPU over.
const cpuEvery = 100 * time.Millisecond

// cpuShare measures the share of its cores the process used, and the
// share it asked for (used, plus the time its threads waited, runnable,
// for a CPU, where that can be read), over the last window of at least
// cpuEvery. Only the scheduler goroutine uses it.
type cpuShare struct {
	at          time.Time
	used, asked time.Duration
	share, ask  float64
}

// get returns the shares used and asked for of the last whole window
// (negative until one has passed, or where they cannot be read).
func (c *cpuShare) get(now time.Time) (used, asked float64) {
	if c.at.IsZero() {
		c.at, c.share, c.ask = now, -1, -1
		c.used, c.asked, _ = processCPU()
		return c.share, c.ask
	}
	if d := now.Sub(c.at); d >= cpuEvery {
		used, asked, ok := processCPU()
		if !ok {
			return -1, -1
		}
		cores := float64(d) * float64(runtime.GOMAXPROCS(0))
		c.share = max(float64(used-c.used), 0) / cores // a thread that exited takes its counts along
		c.ask = max(float64(asked-c.asked), 0) / cores
		c.at, c.used, c.asked = now, used, asked
	}
	return c.share, c.ask
}

package diagnose

// queueGrowGap is how many seconds the in-flight requests may take to set
// a new high before the queue counts as no longer growing: a Redis that
// runs its queued scripts in batches completes them in bursts, and the
// busy VUs rise in steps (trial 2 s39's 800,000-iteration Lua loop).
const queueGrowGap = satBehindSecs

// queueLasted extends an open model's saturation seconds from–to to the
// last second the requests in flight (busy VUs) kept setting new highs,
// each within queueGrowGap seconds of the one before; to the run's end
// when they never stopped. The saturation finding ends where throughput
// first came near the offered rate for a smoothed second, which bursty
// completions reach long before the queue stops growing. A closed model's
// VUs are the test's load, not a queue: from–to as given.
func (c *context) queueLasted(from, to int) int {
	if !c.open {
		return to
	}
	high, last := -1.0, to
	for _, s := range c.secs {
		if s.sec < from {
			continue
		}
		if s.sec > last+queueGrowGap && s.sec > to {
			break
		}
		if s.gauge > high {
			high = s.gauge
			last = max(last, s.sec)
		}
	}
	return last
}

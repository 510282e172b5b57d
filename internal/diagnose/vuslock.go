package diagnose

import (
	"math"
	"slices"
)

// vusCPULow: a saturated closed-model target whose CPU was under half of
// what it may use over the hold at the most VUs did not run out of CPU:
// its requests waited on something that holds none. Trial A's global
// mutex held 90 req/s from 10 to 40 VUs with its Go process at 0.04 of 2
// cores; a single-threaded section on 2 cores reads 0.5 at most.
const vusCPULow = 0.5

// lockRemedies replace KindMoreVUsSameTPS's remedies when the target's CPU
// was low and nothing else scraped (a pool, a DB, a cache) shows the wait.
var lockRemedies = []string{
	"profile the app for blocking and lock contention at the most VUs (Go: pprof's mutex and block profiles; Java: a thread dump or JFR's monitor-blocked events, async-profiler in lock mode): what the {requests} wait on holds no CPU",
	"shorten the critical section: hold a lock around the shared state only, never around I/O or a slow call; shard it, or use a lock-free structure",
	"find a single-threaded stage (one worker, one connection, a synchronized method) or a wait inside the app (a sleep, a rate limiter, a client without a pool) and run it in parallel",
	"plan capacity from the measured throughput, not from the VU count",
}

// lowCPU adds the target's CPU over a hold when every target CPU scraped
// was low there and no pool, DB or cache was scraped, and returns the
// words that say what the flat throughput then means; nil otherwise.
func (c *context) lowCPU(b *builder, from, to int) []any {
	if len(c.pools()) > 0 {
		return nil
	}
	for _, s := range c.set {
		if r := s.Label("role"); r == "db" || r == "cache" {
			return nil // a DB or cache behind the app may be what it waits on
		}
	}
	var low *cpuSubject
	for _, s := range c.cpuSubjects() {
		v := aggregate(s.points, StatMedian, from, to)
		if math.IsNaN(v) {
			continue // not scraped over the hold
		}
		if v >= vusCPULow {
			return nil
		}
		if low == nil {
			low = &s
		}
	}
	if low == nil {
		return nil
	}
	share := b.add(c.fig(low.source, StatMedian, from, to, UnitFraction, "share of its CPU the target used in the hold at the most VUs (median)"))
	b.evidence(share, name(low.name), " CPU in the hold at the most VUs: ", share, " ", low.what, " (", name(low.label),
		", median): the "+c.counts().Many+" waited on something that uses no CPU")
	b.f.Remedies = slices.Clone(lockRemedies)
	return []any{"; ", name(low.name), " CPU ", share, " ", low.what, " while throughput is flat: a lock, a single-threaded section or a wait inside the app"}
}

package diagnose

import "github.com/loadlens/loadlens/internal/sample"

// targetShare is the share of the VU pool that requests in flight (Little's
// law: throughput × mean response time) must fill for drops to be the
// target's: half, so a hanging target that held 4 of 5 VUs counts, and a
// pool that spends 100 ms thinking per 1 ms request does not.
const targetShare = 0.5

// heldByTarget reports whether the open model's drops between two seconds
// came from a pool whose VUs waited for the target. With the pool's series
// (loadlens_vu_pool_held): held by max_vus, the open-file limit, or what
// the target's latency explains while the scheduler kept its schedule,
// never by loadlens's own CPU or lateness, and with at least targetShare
// of the pool filled by requests in flight (a pool too small for its think
// times is the test's limit, not the target's). Without them (an older
// run.db, the agents'): when half the requests meanwhile timed out.
func (c *context) heldByTarget(from, to int) bool {
	pool := -1.0
	for _, h := range c.set.Find(GeneratorPoolHeld) {
		src := c.ofSeries(h)
		if !c.has(src, to) {
			continue
		}
		r := h.Label("reason")
		if generatorHeld(r) || ((r == "latency" || r == "growth") && aggregate(c.values(c.client(SrcLag)), StatMedian, from, to) >= genBehind) {
			return false
		}
		pool = max(pool, aggregate(c.values(src), StatMax, from, to))
	}
	if pool > 0 {
		return c.inFlight(from, to) >= targetShare*pool
	}
	var reqs, timeouts float64
	for i := range c.secs {
		if s := &c.secs[i]; s.sec >= from && s.sec <= to {
			reqs += s.x
			timeouts += float64(s.m.Failures[sample.Timeout])
		}
	}
	return reqs > 0 && timeouts >= reqs/2
}

// inFlight is the requests in flight between two seconds by Little's law:
// the median throughput times the median of the seconds' mean response time.
func (c *context) inFlight(from, to int) float64 {
	return aggregate(c.values(c.client(SrcRequests)), StatMedian, from, to) * aggregate(c.values(c.client(SrcMean)), StatMedian, from, to)
}

// targetHeldVUs finds an open-model run that dropped iterations because
// every VU was waiting for the target: a slow or hanging target held the
// pool, so the target was offered less than the plan, and its latency and
// errors, not loadlens, are what to look at (never "the generator is the
// bottleneck"). Not while loadlens was starved of CPU beside an idle target.
func targetHeldVUs(c *context) []Finding {
	if c.run == nil {
		return nil
	}
	run, ok := c.dropEpisode()
	if !ok {
		return nil
	}
	from, to := c.secs[run.first].sec, c.secs[run.last].sec
	if !c.heldByTarget(from, to) {
		return nil
	}
	if _, starved := c.generatorStarved(to); starved {
		return nil // the VUs waited for loadlens to read the answers, not for the target (genstarved.go)
	}
	b := newBuilder(KindTargetHeldVUs, Warning)
	d := b.add(c.fig(c.client(SrcDropped), StatSum, from, to, UnitCount, "iterations dropped for lack of a free VU"))
	mean := b.add(c.fig(c.client(SrcMean), StatMedian, from, to, UnitDuration, "mean response time while dropping (median of the seconds)"))
	reqs := b.add(c.fig(c.client(SrcRequests), StatSum, from, to, UnitCount, "{requests} while dropping"))
	failed := b.add(c.fig(c.client(SrcFailed), StatSum, from, to, UnitCount, "{requests} failed while dropping"))
	share := b.derive(StatRatio, UnitRate, "share of the {requests} that failed while dropping", failed, reqs)
	onset := b.second(from, StatOnset, "the first second with drops")
	title := []any{"Every VU was waiting for the target from ", onset, ": ", d, b.noun(d, " iteration dropped", " iterations dropped")}
	held, why, ok := c.poolHeld(b, from, to, func(r string) bool { return !generatorHeld(r) })
	if ok {
		title = append(title, ", the VU pool held at ", held, " by ", why)
	}
	title = append(title, ", mean response time ", mean)
	if b.fig(failed).Value > 0 {
		title = append(title, ", ", share, " failed")
	}
	b.title(append(title, ": the target was offered less than the planned load")...)
	b.evidence(d, d, b.noun(d, " iteration dropped from ", " iterations dropped from "), onset, " to ",
		b.second(to, StatSecond, "the last second with drops"), ": no free VU")
	if ok {
		b.evidence(held, "the VU pool was held at ", held, " by ", why, " while every VU waited for a response")
	}
	x := b.add(c.fig(c.client(SrcRequests), StatMedian, from, to, UnitReqPerSec, "throughput while dropping (median)"))
	flight := b.derive(StatProduct, UnitNumber, "{requests} in flight while dropping (Little's law: throughput × mean response time)", x, mean)
	b.evidence(flight, c.counts().Many+" in flight meanwhile: ", flight, " (", x, " × a mean response time of ", mean, "): the VUs waited for the target's responses")
	b.evidence(failed, failed, " of ", reqs, c.noun(b, reqs, " ", " failed meanwhile"))
	if t := c.client(SrcFailed, "kind", sample.Timeout.String()); aggregate(c.values(t), StatSum, from, to) > 0 {
		n := b.add(c.fig(t, StatSum, from, to, UnitCount, "{requests} that timed out while dropping"))
		b.evidence(n, n, c.noun(b, n, " ", " timed out: the target did not answer within the timeout"))
	}
	return []Finding{b.done(from, to)}
}

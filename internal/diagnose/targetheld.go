package diagnose

import "github.com/loadlens/loadlens/internal/sample"

// heldByTarget reports whether the open model's drops between two seconds
// came from a pool whose every VU waited for the target: held by max_vus
// or the open-file limit, or by what the target's latency explains while
// the scheduler kept its schedule, and never by loadlens's own CPU. A run
// without the pool's series (an older run.db, the agents') is judged by
// its failures: drops while most requests timed out waited for the target.
func (c *context) heldByTarget(from, to int) bool {
	var target, generator bool
	for _, h := range c.set.Find(GeneratorPoolHeld) {
		if !c.has(c.ofSeries(h), to) {
			continue
		}
		switch r := h.Label("reason"); {
		case generatorHeld(r):
			generator = true
		case r == "latency" || r == "growth":
			lag := aggregate(c.values(c.client(SrcLag)), StatMedian, from, to)
			generator = generator || lag >= genBehind
			target = target || lag < genBehind
		case r != "":
			target = true
		}
	}
	if target || generator {
		return target && !generator
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

// targetHeldVUs finds an open-model run that dropped iterations because
// every VU was waiting for the target: a slow or hanging target held the
// pool, so the target was offered less than the plan, and its latency and
// errors, not loadlens, are what to look at (never "the generator is the
// bottleneck").
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
	b := newBuilder(KindTargetHeldVUs, Warning)
	d := b.add(c.fig(c.client(SrcDropped), StatSum, from, to, UnitCount, "iterations dropped for lack of a free VU"))
	mean := b.add(c.fig(c.client(SrcMean), StatMedian, from, to, UnitDuration, "mean response time while dropping (median of the seconds)"))
	reqs := b.add(c.fig(c.client(SrcRequests), StatSum, from, to, UnitCount, "requests while dropping"))
	failed := b.add(c.fig(c.client(SrcFailed), StatSum, from, to, UnitCount, "requests failed while dropping"))
	share := b.derive(StatRatio, UnitFraction, "share of the requests that failed while dropping", failed, reqs)
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
	b.evidence(mean, "mean response time meanwhile ", mean, "; ", failed, " of ", reqs, b.noun(reqs, " request failed", " requests failed"))
	if t := c.client(SrcFailed, "kind", sample.Timeout.String()); aggregate(c.values(t), StatSum, from, to) > 0 {
		n := b.add(c.fig(t, StatSum, from, to, UnitCount, "requests that timed out while dropping"))
		b.evidence(n, n, b.noun(n, " request timed out: the target did not answer within the timeout", " requests timed out: the target did not answer within the timeout"))
	}
	return []Finding{b.done(from, to)}
}

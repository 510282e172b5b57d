package diagnose

// generatorHeldDrops finds open-model iterations dropped while loadlens
// held its own VU pool (its CPU used up or taken, or its scheduler behind:
// loadlens_vu_pool_held's reason), in seconds too few or too scattered
// for a drop episode: a burst as the pool grew at the start, a second here
// and there. Whatever their number, the generator was the queue and the
// target was offered less than planned, so "no bottleneck found" cannot
// stand beside them. Under genDropShare of the iterations offered the
// finding is a warning (b's severity is lowered), from it a critical one.
func (c *context) generatorHeldDrops(b *builder) ([]any, int, int, bool) {
	from, to := -1, -1
	var dropped, offered float64
	for i := range c.secs {
		s := &c.secs[i]
		offered += s.started
		if s.dropped > 0 {
			if from < 0 {
				from = s.sec
			}
			to = s.sec
			dropped += s.dropped
		}
	}
	if from < 0 || !c.heldBy(from, to, generatorHeld) {
		return nil, 0, 0, false
	}
	if dropped < genDropShare*offered {
		b.f.Severity = Warning
	}
	d := b.add(c.fig(c.client(SrcDropped), StatSum, from, to, UnitCount, "iterations dropped for lack of a VU"))
	b.evidence(d, d, b.noun(d, " iteration dropped from ", " iterations dropped from "), b.second(from, StatSecond, "the first dropping second"), " to ",
		b.second(to, StatSecond, "the last dropping second"), ": no free VU, and loadlens held its pool itself")
	held, why, _ := c.poolHeld(b, from, to, generatorHeld)
	b.evidence(held, "the VU pool was held at ", held, " by ", why, ": the generator was the queue, not the target")
	return []any{d, b.noun(d, " iteration dropped", " iterations dropped"), " for lack of VUs, the pool held at ", held, " by ", why}, from, to, true
}

package diagnose

// genBurstShare is the share of the run's requests that the late seconds
// and the catch-up second after them must hold for a late burst to count:
// enough to set the run's p95 (a twentieth of its requests).
const genBurstShare = 0.05

// genBurstCarry: the run's p95 must be at least this share of the lag for
// a late burst to count: the lag is in the figures (they are timed from
// the intended starts), not a hiccup the run's latencies never felt.
const genBurstCarry = 0.5

// lateSeconds returns the first run of whole seconds, in a row, in which
// the scheduler started iterations late beside the second's p95, and the
// index of its last: too short for a lag episode (a late start, one
// stall), it is judged by lateBurst.
func (c *context) lateSeconds() (from, to, last int, ok bool) {
	from, last = -1, -1
	for i := range c.secs {
		s := &c.secs[i]
		late := s.sec < c.whole && s.lag >= max(genLagAbs, genLagShare*s.p95)
		if late && (from < 0 || s.sec == to+1) {
			if from < 0 {
				from = s.sec
			}
			to, last = s.sec, i
		} else if from >= 0 {
			break
		}
	}
	return from, to, last, from >= 0
}

// lateBurst finds a late start or a catch-up burst too short for a lag
// episode (trial 2's road2: the VUs ready 1.91 s after the planned start,
// p95 1.8 s in seconds 1–2 timed from the intended starts, 23 ms after):
// the scheduler's lag was of the order of the run's own p95 (a material
// share of it, and it carried at least half the lag), and the late seconds
// with the burst after them held enough requests to set it, and
// genSeconds whole seconds after it ran on schedule at a p95 under
// genLagShare of the lag (a target slow to the end makes its own lag).
// Only alone: beside another sign of the generator or a busy host, that
// finding names the run. The run's latency is then loadlens's lag.
func (c *context) lateBurst(b *builder, alone bool) ([]any, int, int, bool) {
	from, to, last, ok := c.lateSeconds()
	if !ok || !c.open || !alone {
		return nil, 0, 0, false
	}
	end := to
	if last+1 < len(c.secs) && c.secs[last+1].sec < c.whole {
		end = c.secs[last+1].sec // the catch-up second: the late iterations all start at once
	}
	lagSrc := c.client(SrcLag)
	peak := aggregate(c.values(lagSrc), StatMax, from, to)
	p95 := c.quantile(95, UnitDuration, "the run's p95")
	var inBurst, all float64
	for _, s := range c.secs {
		all += s.x
		if s.sec >= from && s.sec <= end {
			inBurst += s.x
		}
	}
	if p95.Value <= 0 || peak < genLagShare*p95.Value || p95.Value < genBurstCarry*peak || inBurst < genBurstShare*all {
		return nil, 0, 0, false
	}
	after := c.fig(c.client(SrcP95), StatMedian, end+1, c.whole-1, UnitDuration, "the p95 after the burst (median of the seconds)")
	if end+genSeconds > c.whole-1 || !(after.Value < genLagShare*peak) {
		return nil, 0, 0, false // no recovery on schedule: a target slow to the end makes its own lag (a held pool)
	}
	lag := b.add(c.fig(lagSrc, StatMax, from, to, UnitDuration, "the highest scheduler lag p99"))
	run := b.add(p95)
	ev := []any{"iterations started late: lag ", name("p99"), " up to ", lag}
	if c.has(c.client(SrcP95), from) {
		ev = append(ev, " beside a ", name("p95"), " of ", b.add(c.fig(c.client(SrcP95), StatValue, from, from, UnitDuration, "the p95 in the first late second")))
	}
	b.evidence(lag, append(ev, " at ", b.second(from, StatSecond, "the first late second"), ", then a catch-up burst to ",
		b.second(end, StatSecond, "the catch-up second"))...)
	b.evidence(run, "the run's ", name("p95"), ": ", run, ", timed from the intended starts: the lag is in it")
	a := b.add(after)
	b.evidence(a, "afterwards, on schedule: ", name("p95"), " ", a, " (median of the seconds)")
	title := []any{"iterations started up to ", lag, " late (scheduler lag ", name("p99"), ") and caught up in a burst"}
	if d := aggregate(c.values(c.client(SrcDropped)), StatSum, from, end); d > 0 && !c.heldBy(from, end, generatorHeld) { // else the held-drops rule names them
		dr := b.add(c.fig(c.client(SrcDropped), StatSum, from, end, UnitCount, "iterations dropped for lack of a VU meanwhile"))
		b.evidence(dr, dr, b.noun(dr, " iteration dropped meanwhile", " iterations dropped meanwhile"), ": the target was not offered the planned load")
		title = append(title, ", ", dr, b.noun(dr, " iteration dropped", " iterations dropped"))
	}
	return title, from, end, true
}

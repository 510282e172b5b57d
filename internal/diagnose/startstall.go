package diagnose

// stallShare is the share of the run's requests that the stalled seconds
// and the catch-up second after them must hold to set the run's p99.
const stallShare = 0.01

// stallSeconds returns the source of the generator's scheduling latency
// and the first run of whole seconds, in a row, in which it was long
// beside the second's p95: too short for a stall episode (stallEpisode
// needs genSeconds), it is judged by startStall.
func (c *context) stallSeconds() (src string, from, to int, ok bool) {
	p95 := c.values(c.client(SrcP95))
	for _, s := range c.set.Find(GeneratorStall) {
		src = c.ofSeries(s)
		from, to = -1, -1
		for _, p := range c.values(src) {
			if p.Sec >= c.whole {
				break
			}
			r, _ := valueAt(p95, p.Sec)
			stalled := p.Value >= max(genLagAbs, genLagShare*r)
			if stalled && (from < 0 || p.Sec == to+1) {
				if from < 0 {
					from = p.Sec
				}
				to = p.Sec
			} else if from >= 0 {
				break
			}
		}
		if from >= 0 {
			return src, from, to, true
		}
	}
	return "", 0, 0, false
}

// startStall finds a stall of the generator too short for a stall episode,
// most often its start, the closed model's twin of lateBurst: at 10,000
// VUs with 1 s think on one core, the first second's 10,000 connections
// left loadlens's goroutines waiting up to 42 ms for a CPU in 2 of 3 runs;
// the requests of those seconds (6 % of the run) set its p99 at 57 ms
// against 2 ms in the seconds after, and the run read "no bottleneck
// found". It holds when the stalled seconds with the catch-up second after
// them hold stallShare of the requests, the run's p99 carries at least half
// the stall (genBurstCarry), and genSeconds whole seconds after it ran at a
// p95 under genLagShare of the stall (the target itself was fast). The
// episode lasts while the seconds' p95 held the wait (genLagShare of it):
// the responses the stall held are read in the second after it. Only
// alone: beside another sign of the generator or a busy host, that finding
// names the run. A warning: the target's figures stand but for its tail.
func (c *context) startStall() (Finding, bool) {
	if c.run == nil || c.open {
		return Finding{}, false // the open model's late starts are lateBurst's
	}
	src, from, to, ok := c.stallSeconds()
	if !ok {
		return Finding{}, false
	}
	peak := aggregate(c.values(src), StatMax, from, to)
	end := to // and the seconds after it whose p95 still held the wait: the responses it held, read late
	for p95 := c.values(c.client(SrcP95)); end+1 < c.whole && end < to+genSeconds-1; end++ {
		if v, ok := valueAt(p95, end+1); !ok || v < genLagShare*peak {
			break
		}
	}
	if end+genSeconds > c.whole-1 {
		return Finding{}, false
	}
	first, lastSec := c.run.Series[0].Sec, c.run.Series[len(c.run.Series)-1].Sec
	reqs := c.values(c.client(SrcRequests))
	in, all := aggregate(reqs, StatSum, from, end), aggregate(reqs, StatSum, first, lastSec)
	p99 := c.quantile(99, UnitDuration, "the run's p99")
	if all <= 0 || in < stallShare*all || p99.Value < genBurstCarry*peak {
		return Finding{}, false
	}
	after := c.fig(c.client(SrcP95), StatMedian, end+1, c.whole-1, UnitDuration, "the p95 after the stall (median of the seconds)")
	if !(after.Value < genLagShare*peak) {
		return Finding{}, false // a target slow to the end makes its own wait
	}
	b := newBuilder(KindGeneratorBound, Warning)
	stall := b.add(c.fig(src, StatMax, from, to, UnitDuration, "the highest scheduling latency p99 of the generator"))
	onset := b.second(from, StatOnset, "the first stalled second")
	when := []any{"at ", onset}
	if end > from {
		when = []any{"from ", onset, " to ", b.second(end, StatSecond, "the last second whose p95 held the wait")}
	}
	b.evidence(stall, "loadlens's goroutines waited up to ", stall, " (", name("p99"), ") for a CPU from ", onset,
		": the responses that came meanwhile waited to be read, and were timed so")
	if p95 := c.client(SrcP95); c.has(p95, from) {
		sp := b.add(c.fig(p95, StatValue, from, from, UnitDuration, "the p95 in the first stalled second"))
		b.evidence(sp, name("p95"), " ", sp, " at ", onset)
	}
	if vus := c.client(SrcVUs); c.has(vus, from) {
		v := b.add(c.fig(vus, StatMax, from, end, UnitCount, "the most VUs active at once meanwhile"))
		b.evidence(v, v, " VUs active meanwhile")
	}
	inR := b.add(c.fig(c.client(SrcRequests), StatSum, from, end, UnitCount, "requests completed from the first stalled second to the last second whose p95 held the wait"))
	allR := b.add(c.fig(c.client(SrcRequests), StatSum, first, lastSec, UnitCount, "requests completed in the run"))
	share := b.derive(StatRatio, UnitFraction, "their share of the run's requests", inR, allR)
	b.evidence(share, append(append([]any{inR, " of the run's ", allR, " requests (", share, ") came "}, when...), ": enough to set its ", name("p99"))...)
	runP99 := b.add(p99)
	a := b.add(after)
	b.evidence(a, "afterwards ", name("p95"), " ", a, " (median of the seconds): the target answered fast")
	b.title(append(append([]any{"The load generator fell behind "}, when...), ": its goroutines waited up to ", stall,
		" (", name("p99"), ") for a CPU, and those seconds set the run's ", name("p99"), " (", runP99, "); ", name("p95"), " ", a,
		" afterwards: the tail is the generator's, not the target's")...)
	b.f.Remedies = []string{
		"read the tail from the seconds after the stall (the report's latency chart per second), or run again: a stall at the start comes from many VUs connecting at once",
		"start the VUs over a ramp (stages) so their connections spread, or give the generator a core of its own",
	}
	return b.done(from, end), true
}

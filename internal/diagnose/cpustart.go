package diagnose

import "math"

// fullLoadShare is the share of the run's highest load the load at a CPU's
// onset must have for the load to be at its full rate already: a fixed
// rate's or VU count's per-second reading jitters by a few percent, a ramp
// starts far lower.
const fullLoadShare = 0.9

// fullAtOnset reports whether the load at the first client second from the
// onset on was already at its full rate: a resource full from then on
// filled with this load, not before it rose (trial A3's c3-slowq: 40 req/s
// from 0:00, its DB's CPU 100 % busy from 0:00).
func (c *context) fullAtOnset(from int) bool {
	var peak, at float64
	seen := false
	for _, s := range c.secs {
		peak = max(peak, s.load)
		if !seen && s.sec >= from {
			at, seen = s.load, true
		}
	}
	return seen && peak > 0 && at >= fullLoadShare*peak
}

// behindPool reports whether a DB's CPU full from the onset is the cause
// behind the full DB pool the open model's queue is at (queueCause): the
// load was at its full rate from the onset, so the CPU filled with it,
// and the pool's connections were busy inside the DB, so they waited on
// that CPU. A CPU other than the DB's, or a DB already full before a ramp
// rose, stays context (poolQueued).
func (c *context) behindPool(s cpuSubject, from, to int) bool {
	p := c.queueCause
	if p == nil || p.Kind != KindPoolExhaustion || p.From > min(from+2, to) || p.To < from {
		return false
	}
	if s.name != "DB" || !c.fullAtOnset(from) {
		return false
	}
	d, ok := c.dbSessionsOf()
	if !ok {
		return false // no sessions: the connections may have been held idle by the app
	}
	for _, pl := range c.pools() {
		if c.busyInDB(d, aggregate(c.values(c.ofSeries(pl.inUse)), StatMedian, from, to), from, to) {
			return true
		}
	}
	return false
}

// heldOverHold reports whether, in the closed model, a process's own CPU
// was at its limit over most of the last hold at one VU count (its median
// there at the threshold) from an onset inside it to the run's end: at the
// same VUs a closed model's latency does not rise as the CPU fills, its
// throughput is what the CPU allows, so its users waited for that CPU
// (trial A3's c2-gc-closed: 20 VUs throughout, its 1 core full from 0:11,
// 0.76–0.94 before). It returns the hold's VUs for the title and a
// function that states the hold. A host's CPU is left out: other
// processes may fill a host.
func (c *context) heldOverHold(b *builder, s cpuSubject, from, to int) ([]any, func(), bool) {
	if c.open || s.host != nil || !c.toLastScrape(s, to) {
		return nil, nil, false
	}
	holds := c.holds()
	if len(holds) == 0 || holds[len(holds)-1].last != len(c.secs)-1 {
		return nil, nil, false
	}
	h := holds[len(holds)-1]
	hf, ht := c.secs[h.first].sec, c.secs[h.last].sec
	if from < hf || from > ht {
		return nil, nil, false
	}
	f := c.fig(s.source, StatMedian, hf, ht, UnitFraction, "CPU use over the hold at one VU count, "+s.what+" (median)")
	if math.IsNaN(f.Value) || f.Value < s.thresh {
		return nil, nil, false
	}
	vus := b.add(c.fig(c.client(SrcVUsAvg), StatMedian, hf, ht, UnitCount, "active VUs over the hold (median)"))
	words := c.loadWords(b, vus)
	return words, func() {
		m := b.add(f)
		ev := append([]any{"over the hold at "}, words...)
		ev = append(ev, ", ", b.second(hf, StatSecond, "the first second of the hold"), "–", b.second(ht, StatSecond, "the last second of the hold"),
			": its CPU at ", m, " ", s.what, " (median), at its limit over most of the hold and to the run's end: with the VUs the same, its throughput was what this CPU allowed")
		b.evidence(m, ev...)
	}, true
}

// toLastScrape reports whether a saturated run ending at to reaches the
// subject's last scrape within the load's seconds (give or take a second).
func (c *context) toLastScrape(s cpuSubject, to int) bool {
	if len(s.points) < 3 || len(c.all) == 0 {
		return false
	}
	end, last := c.all[len(c.all)-1].sec, -1
	for _, p := range s.points {
		if p.Sec <= end { // scrapes after the load's last second do not count
			last = p.Sec
		}
	}
	return last >= 0 && to >= last-1
}

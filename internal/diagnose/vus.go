package diagnose

// More-VUs thresholds (case study 2: 1,500 → 3,000 VUs, ~3,700 TPS both
// times, 450 → 800 ms). In a closed model throughput is N / (R + think
// time), so when the VUs grow and throughput does not, the response time
// must have grown instead: the system was saturated, and the extra VUs
// only queued.
const (
	vusGain       = 1.5  // the VUs grew at least 1.5×
	vusFlat       = 0.15 // throughput rose less than 15 % (or fell)
	vusLatency    = 0.6  // response time grew at least 60 % as much as the VUs
	vusMinSeconds = 6
	vusHold       = 2 // whole seconds at one VU count make a hold
)

// moreVUsSameTPS finds a closed-model test whose added VUs brought no
// throughput, only response time. It compares two levels: the hold at the
// most VUs, and the earliest load from which throughput stayed as it was
// there, an earlier hold where there is one, else three seconds of the
// ramp. Each level's figures come from its own whole seconds, never from a
// mix of ramp and hold.
func moreVUsSameTPS(c *context) []Finding {
	if !c.closed || len(c.secs) < vusMinSeconds {
		return nil
	}
	holds := c.holds()
	if len(holds) == 0 {
		return nil
	}
	top := holds[0]
	for _, h := range holds[1:] {
		if c.secs[h.first].gauge > c.secs[top.first].gauge ||
			(c.secs[h.first].gauge == c.secs[top.first].gauge && h.last-h.first > top.last-top.first) {
			top = h
		}
	}
	reqs, mean := c.client(SrcRequests), c.client(SrcMean)
	bFrom, bTo := c.secs[top.first].sec, c.secs[top.last].sec
	xTop := aggregate(c.values(reqs), StatMedian, bFrom, bTo)
	if xTop <= 0 {
		return nil
	}
	// a is the earliest second from which throughput was already as high as
	// in the hold (within 15 %): the VUs added after it brought none.
	xs := smooth(c.column(func(s *clientSecond) float64 { return s.x }), 1)
	a := top.first
	for a > 0 && xs[a-1]*(1+vusFlat) >= xTop {
		a--
	}
	if a == top.first {
		return nil
	}
	aFrom, aTo, ok := c.lowLevel(holds, a, top.first)
	if !ok {
		return nil
	}
	b := newBuilder(KindMoreVUsSameTPS, Warning)
	nA := c.vusFigure(b, aFrom, aTo, "active VUs at the lower level (median)")
	nB := c.vusFigure(b, bFrom, bTo, "active VUs in the hold at the most VUs (median)")
	xA := b.add(c.fig(reqs, StatMedian, aFrom, aTo, UnitReqPerSec, "throughput at the lower level (median)"))
	xB := b.add(c.fig(reqs, StatMedian, bFrom, bTo, UnitReqPerSec, "throughput in the hold at the most VUs (median)"))
	rA := b.add(c.fig(mean, StatMedian, aFrom, aTo, UnitDuration, "mean response time at the lower level (median)"))
	rB := b.add(c.fig(mean, StatMedian, bFrom, bTo, UnitDuration, "mean response time in the hold at the most VUs (median)"))
	na, nb, xa, ra, rb := b.fig(nA).Value, b.fig(nB).Value, b.fig(xA).Value, b.fig(rA).Value, b.fig(rB).Value
	gain := nb / max(na, 1e-9)
	if na <= 0 || ra <= 0 || gain < vusGain || xTop > xa*(1+vusFlat) || rb < ra*(1+vusLatency*(gain-1)) || rb-ra < satLatencyAbs {
		return nil
	}
	same := "same"
	if xTop*(1+vusFlat) < xa {
		same = "less"
	}
	g := b.derive(StatRatio, UnitRatio, "VUs at the most over VUs at the lower level", nB, nA)
	rg := b.derive(StatRatio, UnitRatio, "mean response time at the most VUs over the lower level's", rB, rA)
	onset := b.second(aFrom, StatOnset, "the first second of the lower level")
	title := []any{"More VUs, ", same, " throughput: VUs ", nA, " → ", nB, " (", g, ") from ", onset, ", throughput ", xA, " → ", xB,
		", mean response time ", rA, " → ", rB, " (", rg, ")"}
	b.evidence(nA, "lower level, ", onset, "–", b.second(aTo, StatSecond, "the last second of the lower level"), ": ", nA, " VUs, ", xA, ", mean ", rA)
	b.evidence(nB, "hold at the most VUs, ", b.second(bFrom, StatSecond, "the first second of the hold"), "–",
		b.second(bTo, StatSecond, "the last second of the hold"), ": ", nB, " VUs, ", xB, ", mean ", rB)
	b.evidence(xB, "throughput ", xA, " → ", xB, " (", b.derive(StatChange, UnitChange, "change of throughput", xB, xA), ") while the VUs grew ", g)
	c.littlesLaw(b, xA, rA, nA)
	c.littlesLaw(b, xB, rB, nB)
	b.title(append(title, c.lowCPU(b, bFrom, bTo)...)...) // its CPU low: a lock or a wait (vuslock.go)
	return []Finding{b.done(aFrom, bTo)}
}

// holds returns the runs of at least vusHold steady whole seconds (by index
// into the view) at one VU count.
func (c *context) holds() []span {
	var out []span
	start := -1
	for i := 0; i <= len(c.secs); i++ {
		if i < len(c.secs) && c.secs[i].steady && c.secs[i].x > 0 && (start < 0 || c.secs[i].gauge == c.secs[start].gauge) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= vusHold {
			out = append(out, span{start, i - 1})
		}
		start = -1
		if i < len(c.secs) && c.secs[i].steady && c.secs[i].x > 0 {
			start = i
		}
	}
	return out
}

// lowLevel returns the seconds of the lower level from index a on: the
// earliest hold between a and the top hold, else the three seconds of the
// ramp around a (or the first three whose VUs over the second are known).
func (c *context) lowLevel(holds []span, a, top int) (int, int, bool) {
	for _, h := range holds {
		if h.first >= a && h.last < top {
			return c.secs[h.first].sec, c.secs[h.last].sec, true
		}
	}
	i := max(a, 1)
	for i < top && c.secs[i-1].sec <= c.first {
		i++
	}
	if i+1 >= top {
		return 0, 0, false
	}
	from, to := c.window(i, 1)
	return from, to, true
}

package diagnose

import "math"

// Pool-limit thresholds. A full pool is the bottleneck only when it limited
// the throughput or made a material part of the latency: trial A40's pool
// of 3 at 90 req/s (60 % of 3 connections / 20 ms) was full at some scrapes
// and saw waits, as queueing has at 60 %, yet the wait was 1–10 % of the
// response time and every second completed what was offered.
const (
	poolWaitShare = 0.25 // the mean wait for a connection a quarter or more of the mean response time
	poolBehind    = 1.2  // or, open model, offered at least 1.2 × the throughput...
	poolBehindGap = 5.0  // ... and at least 5 req/s more
)

// poolLoad is what the client saw while a pool was full: the mean wait
// for a connection per request (Little's law: the mean waiters, or seconds
// waited per second, over the mean throughput) against the mean response
// time, and the offered rate against the throughput.
type poolLoad struct {
	judged             bool    // a client view covers the seconds
	waitPerReq, resp   float64 // seconds; NaN without a wait series
	offered, through   float64 // req/s over the scheduled seconds; offered NaN for a closed model
	waitSrc            string
	to                 int // the episode's last whole second: a cut-short one's rates are too low
	schedFrom, schedTo int
}

// poolLoadOver reads the client's view of a full pool's seconds.
func (c *context) poolLoadOver(p pool, from, to int) poolLoad {
	reqs, mean := c.client(SrcRequests), c.client(SrcMean)
	to = min(to, c.whole-1)
	x := aggregate(c.values(reqs), StatMean, from, to)
	l := poolLoad{judged: c.run != nil && x > 0, waitPerReq: math.NaN(), offered: math.NaN(), to: to,
		resp: aggregate(c.values(mean), StatMean, from, to)}
	if !l.judged {
		return l
	}
	switch {
	case p.pending != nil:
		l.waitSrc = c.ofSeries(p.pending)
	case p.waited != nil:
		l.waitSrc = c.waitedSource(p)
	}
	if l.waitSrc != "" {
		l.waitPerReq = aggregate(c.values(l.waitSrc), StatMean, from, to) / x
	}
	if c.open {
		// the drain after the schedule offers nothing: judge the seconds it offered
		l.schedFrom, l.schedTo = from, lastOffered(c, from, to)
		l.offered = aggregate(c.values(c.client(SrcOffered)), StatMean, l.schedFrom, l.schedTo)
		l.through = aggregate(c.values(reqs), StatMean, l.schedFrom, l.schedTo)
	}
	return l
}

// lastOffered is the last second within from..to with requests offered; to
// when none.
func lastOffered(c *context, from, to int) int {
	last := to
	for _, pt := range c.values(c.client(SrcOffered)) {
		if pt.Sec >= from && pt.Sec <= to && pt.Value > 0 {
			last = pt.Sec
		}
	}
	return last
}

// waitMaterial reports whether the wait for a connection was a material
// share of the response time.
func (l poolLoad) waitMaterial() bool {
	return l.waitPerReq >= poolWaitShare*l.resp && l.resp > 0
}

// behind reports whether an open model's throughput fell behind the offered rate.
func (l poolLoad) behind() bool {
	return l.offered >= poolBehind*l.through && l.offered-l.through >= poolBehindGap
}

// limited reports whether the pool limited the throughput or made a
// material part of the latency; a run without a client view, or a closed
// one without a wait series, is not judged and keeps the finding.
func (l poolLoad) limited() bool {
	if !l.judged || (math.IsNaN(l.waitPerReq) && math.IsNaN(l.offered)) {
		return true
	}
	return l.waitMaterial() || l.behind()
}

// poolLoadEvidence states why the full pool is the bottleneck: the wait
// per request against the response time, and the throughput behind the
// offered rate, whichever the client view gives.
func (c *context) poolLoadEvidence(b *builder, l poolLoad, from int) {
	if !l.judged {
		return
	}
	to := l.to
	reqs := c.client(SrcRequests)
	if !math.IsNaN(l.waitPerReq) {
		w := b.add(c.fig(l.waitSrc, StatMean, from, to, UnitNumber, "requests waiting for a connection (mean; seconds waited per second)"))
		x := b.add(c.fig(reqs, StatMean, from, to, UnitReqPerSec, "throughput while the pool was full (mean)"))
		per := b.derive(StatRatio, UnitDuration, "the mean wait for a connection per request, by Little's law", w, x)
		r := b.add(c.fig(c.client(SrcMean), StatMean, from, to, UnitDuration, "mean response time while the pool was full (mean of seconds)"))
		share := b.derive(StatRatio, UnitFraction, "the wait for a connection's share of the mean response time", per, r)
		b.evidence(share, "the wait for a connection per request: ", per, " of the mean response time ", r, " (", share,
			"; Little's law: ", w, " waiting at a time over ", x, ")")
	}
	if l.behind() {
		o := b.add(c.fig(c.client(SrcOffered), StatMean, l.schedFrom, l.schedTo, UnitReqPerSec, "offered while the pool was full (mean of the scheduled seconds)"))
		x := b.add(c.fig(reqs, StatMean, l.schedFrom, l.schedTo, UnitReqPerSec, "throughput while the pool was full (mean of the scheduled seconds)"))
		b.evidence(o, "the target fell behind: ", x, " completed of ", o, " offered (means, ",
			b.second(l.schedFrom, StatSecond, "the first scheduled second the pool was full"), "–",
			b.second(l.schedTo, StatSecond, "the last scheduled second the pool was full"), ")")
	}
}

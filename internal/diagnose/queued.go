package diagnose

import "math"

// queueMinShare is the least share of the requests an endpoint must have
// for its latency to speak for the queue.
const queueMinShare = 0.1

// queued returns an endpoint whose own median latency rose from the
// seconds around index i of the client view to those around j as a queue
// makes it (latencyRose for the load's gain), and true; or -1 and false.
// The mean latency of all requests also rises when the mix of endpoints
// changes (a flow's slower second step reached after a think), which is
// no queue: a saturated target slows each endpoint itself. A run of one
// endpoint, whose mean is its own, returns -1 and true.
func (c *context) queued(i, j int, gain float64) (int, bool) {
	if c.run == nil || len(c.run.Layout.Endpoints) < 2 {
		return -1, true
	}
	var total float64
	n := make([]float64, len(c.run.Layout.Endpoints))
	for _, s := range c.secs[i : j+1] {
		for ep := range s.m.PerEndpoint {
			n[ep] += float64(s.m.PerEndpoint[ep].Requests)
			total += float64(s.m.PerEndpoint[ep].Requests)
		}
	}
	best, bestRise := -1, 0.0
	for ep := range n {
		if total == 0 || n[ep] < queueMinShare*total {
			continue
		}
		src := c.client(SrcP50, c.endpointSource(ep)...)
		ff, ft := c.window(i, 1)
		lf, lt := c.window(j, 1)
		a, b := aggregate(c.values(src), StatMedian, ff, ft), aggregate(c.values(src), StatMedian, lf, lt)
		if math.IsNaN(a) || math.IsNaN(b) || a <= 0 || !latencyRose(a, b, gain) {
			continue
		}
		if rise := b / a; best < 0 || rise > bestRise {
			best, bestRise = ep, rise
		}
	}
	return best, best >= 0
}

// queueEvidence states the endpoint's own latency at windows i and j.
func (c *context) queueEvidence(b *builder, ep, i, j int) {
	if ep < 0 {
		return
	}
	src := c.client(SrcP50, c.endpointSource(ep)...)
	ff, ft := c.window(i, 1)
	lf, lt := c.window(j, 1)
	a := b.add(c.fig(src, StatMedian, ff, ft, UnitDuration, "the endpoint's p50 at the start (median of 3 seconds)"))
	z := b.add(c.fig(src, StatMedian, lf, lt, UnitDuration, "the endpoint's p50 at the end (median of 3 seconds)"))
	b.evidence(z, name(c.endpointName(ep)), " alone: ", name("p50"), " ", a, " → ", z,
		": its "+c.counts().Many+" queued, not only the mix of endpoints changed")
}

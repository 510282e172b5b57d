package diagnose

import (
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
)

// Bimodal thresholds. A unimodal latency distribution, even a wide one
// (lognormal with σ = 1, or exponential above its 10th percentile), never
// grows 3× within 2 percentiles; two modes (cache hit and miss, fast and
// slow path) do, at the percentile that separates them. Both modes must
// hold at least 5 % of the requests, and the gap must be at least 1 ms.
const (
	biMinSamples = 200
	biGap        = 3.0
	biWidth      = 2
	biLow        = 5
	biHigh       = 95
	biAbs        = 0.001
	slowFactor   = 5.0 // an endpoint's p50 at least 5× the others' ...
	slowShare    = 0.5 // ... with at most half of the requests: hidden in the average
	slowMin      = 50  // requests, for its p50 to mean something

	shiftMinRequests = 10  // a second's median needs some requests
	shiftShare       = 0.2 // each side holds the median in a fifth of the seconds ...
	shiftChanges     = 3   // ... in few blocks
)

// split is where a latency distribution separates into two modes.
type split struct {
	below      int     // the percentile at the top of the fast mode
	lo, hi     float64 // the quantiles either side of the gap
	fast, slow float64 // each mode's median
}

// twoModes finds the gap between two modes of a histogram, if it has one.
func twoModes(h *metrics.Hist) (split, bool) {
	if h.Count() < biMinSamples {
		return split{}, false
	}
	var q [biHigh + 1]float64
	for p := biLow; p <= biHigh; p++ {
		q[p] = secs(h.Quantile(float64(p)))
	}
	best, ratio := -1, 0.0
	for p := biLow; p+biWidth <= biHigh; p++ {
		if q[p] > 0 && q[p+biWidth]/q[p] > ratio {
			best, ratio = p, q[p+biWidth]/q[p]
		}
	}
	if best < 0 || ratio < biGap || q[best+biWidth]-q[best] < biAbs {
		return split{}, false
	}
	below := best
	for p := best; p < best+biWidth; p++ {
		if q[p+1]/q[p] > q[below+1]/q[below] {
			below = p
		}
	}
	return split{below: below, lo: q[below], hi: q[below+1],
		fast: secs(h.Quantile(float64(below) / 2)), slow: secs(h.Quantile(float64(below+1+100) / 2))}, true
}

// bimodalLatency finds endpoints with two latency modes, and one slow
// endpoint hiding in the average of the others.
func bimodalLatency(c *context) []Finding {
	if c.run == nil || len(c.secs) == 0 {
		return nil
	}
	from, to := c.secs[0].sec, c.secs[len(c.secs)-1].sec
	var fs []Finding
	for i, ep := range c.run.Layout.Endpoints {
		p50 := func(s *clientSecond) (time.Duration, int64) {
			return s.m.PerEndpoint[i].P50, s.m.PerEndpoint[i].Requests
		}
		if s, ok := twoModes(c.run.Endpoints[i].Duration); ok && !c.shifted(s, p50) {
			fs = append(fs, modesFinding("on "+ep.Name, `http_req_duration{endpoint:"`+ep.Name+`"}`, s, from, to))
		}
	}
	fs = append(fs, c.slowEndpoints(from, to)...)
	if len(fs) == 0 {
		p50 := func(s *clientSecond) (time.Duration, int64) { return s.m.P50, s.m.Requests }
		if s, ok := twoModes(c.run.Total().Duration); ok && !c.shifted(s, p50) {
			fs = append(fs, modesFinding("over all requests", "http_req_duration", s, from, to))
		}
	}
	return fs
}

// shifted reports whether two modes follow each other in time rather than
// mix: the per-second median sits on the fast side for a block of seconds
// and on the slow side for another, changing sides at most shiftChanges
// times. A mixture keeps the median on one side (or, near 50/50, flips it
// often). The other rules explain changes over time.
func (c *context) shifted(s split, p50 func(*clientSecond) (time.Duration, int64)) bool {
	var fast, slow, changes, n int
	side := 0
	for i := range c.secs {
		v, requests := p50(&c.secs[i])
		if requests < shiftMinRequests {
			continue
		}
		n++
		now := 0
		switch {
		case secs(v) <= s.lo:
			fast, now = fast+1, -1
		case secs(v) >= s.hi:
			slow, now = slow+1, 1
		}
		if now != 0 && side != 0 && now != side {
			changes++
		}
		if now != 0 {
			side = now
		}
	}
	return n > 0 && float64(fast) >= shiftShare*float64(n) && float64(slow) >= shiftShare*float64(n) && changes <= shiftChanges
}

func modesFinding(where, source string, s split, from, to int) Finding {
	fast := float64(s.below) / 100
	return Finding{
		Kind: KindBimodalLatency, Severity: Info, From: from, To: to,
		Title: "Bimodal latency " + where + ": " + pct(fast) + " of requests at ~" + dur(s.fast) + ", " + pct(1-fast) +
			" at ~" + dur(s.slow) + " (cache hits and misses, or a fast and a slow path?)",
		Evidence: []Evidence{
			{Source: source, Sec: to, Value: s.lo, Text: "p" + strconv.Itoa(s.below) + " " + dur(s.lo) + ", p" + strconv.Itoa(s.below+1) +
				" " + dur(s.hi) + ": almost no requests in between"},
			{Source: source, Sec: to, Value: s.fast, Text: "the fast mode's median (p" + num(float64(s.below)/2) + "): " + dur(s.fast)},
			{Source: source, Sec: to, Value: s.slow, Text: "the slow mode's median (p" + num(float64(s.below+101)/2) + "): " + dur(s.slow)},
		},
		Remedies: remediesFor(KindBimodalLatency),
	}
}

// slowEndpoints finds an endpoint whose median is many times the others'
// while it serves a minority of the requests, so averages hide it.
func (c *context) slowEndpoints(from, to int) []Finding {
	var total int64
	for i := range c.run.Endpoints {
		total += c.run.Endpoints[i].Requests
	}
	var fs []Finding
	for i, ep := range c.run.Layout.Endpoints {
		e := &c.run.Endpoints[i]
		if e.Requests < slowMin || float64(e.Requests) > slowShare*float64(total) {
			continue
		}
		var others []float64
		for j := range c.run.Endpoints {
			if j != i && c.run.Endpoints[j].Requests >= slowMin {
				others = append(others, secs(c.run.Endpoints[j].Duration.Quantile(50)))
			}
		}
		p50, rest := secs(e.Duration.Quantile(50)), median(others)
		if len(others) == 0 || p50 < slowFactor*rest || p50-rest < biAbs {
			continue
		}
		share := float64(e.Requests) / float64(total)
		source := `http_req_duration{endpoint:"` + ep.Name + `"}`
		fs = append(fs, Finding{
			Kind: KindBimodalLatency, Severity: Info, From: from, To: to,
			Title: "One slow endpoint: " + ep.Name + " p50 " + dur(p50) + " vs " + dur(rest) + " for the others (" +
				pct(share) + " of requests), hidden in the overall average",
			Evidence: []Evidence{
				{Source: source, Sec: to, Value: p50, Text: ep.Name + ": p50 " + dur(p50) + ", p95 " + dur(secs(e.Duration.Quantile(95))) +
					" over " + count(float64(e.Requests)) + " requests"},
				{Source: "http_req_duration", Sec: to, Value: rest, Text: "median p50 of the other endpoints: " + dur(rest) +
					" (" + times(p50/rest) + " faster)"},
			},
			Remedies: remediesFor(KindBimodalLatency),
		})
	}
	return fs
}

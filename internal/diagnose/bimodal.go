package diagnose

import (
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
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

	biOutcome = 0.5 // failures as many as half a mode's requests: the modes may split by outcome

	shiftMinRequests = 10  // a second's median needs some requests
	shiftShare       = 0.2 // a fifth of the seconds hold both modes
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
	var fs []Finding
	for i := range c.run.Layout.Endpoints {
		if !c.run.Latency(i) {
			continue // a session's length is what it was held for, not a latency with modes
		}
		q := func(s *clientSecond) (time.Duration, time.Duration, int64) {
			return s.m.PerEndpoint[i].P50, s.m.PerEndpoint[i].P95, s.m.PerEndpoint[i].Requests
		}
		e := &c.run.Endpoints[i].Figures
		if s, ok := twoModes(e.Duration); ok && c.coexist(s, q) {
			u := units.ForProtocol(c.run.Layout.Endpoints[i].Protocol) // a gRPC endpoint's modes are of calls
			if f, ok := c.modesFinding("on "+c.endpointName(i), u, s, e, c.endpointSource(i)...); ok {
				fs = append(fs, f)
			}
		}
	}
	fs = append(fs, c.slowEndpoints()...)
	if len(fs) == 0 {
		q := func(s *clientSecond) (time.Duration, time.Duration, int64) { return s.m.P50, s.m.P95, s.m.Latencies }
		t := c.run.Total()
		if s, ok := twoModes(t.Duration); ok && c.coexist(s, q) {
			u := c.latencyUnit()
			if f, ok := c.modesFinding("over all "+u.Many, u, s, &t.Figures); ok {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// byOutcome reports whether the failures among e's requests could make up
// half of either mode: the modes may then be failures and successes (fast
// 503s beside served requests, slow timeouts beside them), not a cache.
func byOutcome(e *metrics.Figures, s split) bool {
	var failed int64
	for _, n := range e.Failures {
		failed += n
	}
	n := float64(e.Duration.Count())
	fast, slow := n*float64(s.below)/100, n*float64(100-s.below)/100
	return float64(failed) >= biOutcome*min(fast, slow)
}

// coexist reports whether two modes mix within seconds rather than follow
// each other in time (before and after a queue grew: trial A's global
// mutex answered in 11 ms until 0:05, then in up to 4.76 s, and read as
// "cache hits and misses"). A second counts when it had shiftMinRequests.
// With the fast mode the larger, a second mixes when its median is fast
// and its p95 slow (both modes hold 5 % of it); the modes coexist when a
// fifth of the seconds mix. With the slow mode the larger, the median of a
// mixture is slow in nearly every second: the modes follow each other when
// the seconds whose median was fast hold half of the fast mode's requests
// or more. The other rules explain changes over time.
func (c *context) coexist(s split, q func(*clientSecond) (p50, p95 time.Duration, requests int64)) bool {
	var n, mixed int
	var all, fastSecs int64
	for i := range c.secs {
		p50, p95, requests := q(&c.secs[i])
		if requests < shiftMinRequests {
			continue
		}
		n++
		all += requests
		if secs(p50) <= s.lo {
			fastSecs += requests
			if secs(p95) >= s.hi {
				mixed++
			}
		}
	}
	if n == 0 {
		return false
	}
	if s.below >= 50 {
		return float64(mixed) >= shiftShare*float64(n)
	}
	return float64(fastSecs) < 0.5*float64(all)*float64(s.below)/100
}

// modesFinding states two latency modes of the requests a filter selects,
// e their figures, u what they count (requests or gRPC calls). When failures could make up a mode, the successes'
// durations decide where the layout kept them (no modes there: the failures
// made one, no finding); else the finding says the modes may split by
// outcome instead of guessing a cache.
func (c *context) modesFinding(where string, u units.Unit, s split, e *metrics.Figures, kv ...string) (Finding, bool) {
	outcome := byOutcome(e, s)
	if outcome && e.Expected != nil && e.Expected.Count() >= biMinSamples {
		if _, ok := twoModes(e.Expected); !ok {
			return Finding{}, false
		}
		outcome = false // the successful requests alone have both modes
	}
	b := newBuilder(KindBimodalLatency, Info)
	lo := b.add(c.quantile(float64(s.below), UnitDuration, "the top of the fast mode", kv...))
	hi := b.add(c.quantile(float64(s.below+1), UnitDuration, "the bottom of the slow mode", kv...))
	fast := b.add(c.quantile(float64(s.below)/2, UnitDuration, "the fast mode's median", kv...))
	slow := b.add(c.quantile(float64(s.below+1+100)/2, UnitDuration, "the slow mode's median", kv...))
	share := b.add(Figure{Value: float64(s.below) / 100, Unit: UnitFraction, What: "share of " + u.Many + " in the fast mode", Source: b.fig(lo).Source,
		Stat: StatRank, Q: float64(s.below), From: b.fig(lo).From, To: b.fig(lo).To, Of: []int{int(lo)}})
	title := []any{"Bimodal latency ", name(where), ": ", share, " of " + u.Many + " at ~", fast, ", the rest at ~", slow}
	if outcome {
		first, last := c.run.Series[0].Sec, c.run.Series[len(c.run.Series)-1].Sec
		failed := b.add(c.fig(c.client(SrcFailed, kv...), StatSum, first, last, UnitCount, u.Many+" failed"))
		all := b.add(c.fig(c.client(SrcRequests, kv...), StatSum, first, last, UnitCount, u.Many))
		fshare := b.derive(StatRatio, UnitRate, "share of the "+u.Many+" that failed", failed, all)
		b.title(append(title, "; ", fshare, " of them failed: the modes may be the failures and the successes, not two paths")...)
		b.f.Remedies = outcomeRemedies(u)
	} else {
		b.title(append(title, " (cache hits and misses, or a fast and a slow path?)")...)
	}
	b.evidence(lo, name("p"+strconv.Itoa(s.below)), " ", lo, ", ", name("p"+strconv.Itoa(s.below+1)), " ", hi, ": almost no "+u.Many+" in between")
	b.evidence(fast, "the fast mode's median (", name(QuantileName(float64(s.below)/2)), "): ", fast)
	b.evidence(slow, "the slow mode's median (", name(QuantileName(float64(s.below+101)/2)), "): ", slow)
	return b.done(c.secs[0].sec, c.secs[len(c.secs)-1].sec), true
}

// slowEndpoints finds an endpoint whose median is many times that of the
// other requests while it serves a minority of them, so averages hide it.
func (c *context) slowEndpoints() []Finding {
	var total int64
	for i := range c.run.Endpoints {
		if c.run.Latency(i) {
			total += c.run.Endpoints[i].Requests
		}
	}
	first, last := c.run.Series[0].Sec, c.run.Series[len(c.run.Series)-1].Sec
	var fs []Finding
	for i := range c.run.Layout.Endpoints {
		e := &c.run.Endpoints[i]
		if !c.run.Latency(i) || e.Requests < slowMin || float64(e.Requests) > slowShare*float64(total) || total-e.Requests < slowMin {
			continue
		}
		sel := c.endpointSource(i)
		others := []string{"not_endpoint", sel[1]} // the other requests; "not_scenario" read as every other scenario's
		if len(c.run.Layout.Scenarios) > 1 {
			others = append(others, "not_endpoint_scenario", sel[3])
		}
		b := newBuilder(KindBimodalLatency, Info)
		u, all := units.ForProtocol(c.run.Layout.Endpoints[i].Protocol), c.latencyUnit() // its calls beside the run's requests
		p50 := b.add(c.quantile(50, UnitDuration, "the endpoint's median latency", sel...))
		rest := b.add(c.quantile(50, UnitDuration, "the median latency of the other "+all.Many, others...))
		if b.fig(p50).Value < slowFactor*b.fig(rest).Value || b.fig(p50).Value-b.fig(rest).Value < biAbs {
			continue
		}
		p95 := b.add(c.quantile(95, UnitDuration, "the endpoint's p95", sel...))
		n := b.add(c.fig(c.client(SrcRequests, sel...), StatSum, first, last, UnitCount, "the endpoint's "+u.Many))
		total := b.add(c.fig(c.client(SrcRequests), StatSum, first, last, UnitCount, "all "+all.Many))
		share := b.derive(StatRatio, UnitFraction, "the endpoint's share of the "+all.Many, n, total)
		ep := name(c.endpointName(i))
		b.title("One slow endpoint: ", ep, " ", name("p50"), " ", p50, " vs ", rest, " for the other "+all.Many+" (", share,
			" of "+all.Many+"), hidden in the overall average")
		b.evidence(p50, ep, ": ", name("p50"), " ", p50, ", ", name("p95"), " ", p95, " over ", n, b.noun(n, " "+u.One, " "+u.Many))
		b.evidence(rest, "median of the other "+all.Many+": ", rest, " (", b.derive(StatRatio, UnitRatio, "how many times faster the other "+all.Many+" are", p50, rest), " faster)")
		fs = append(fs, b.done(c.secs[0].sec, c.secs[len(c.secs)-1].sec))
	}
	return fs
}

// QuantileName names a percentile the way the figures' sources do: p25, p62.5.
func QuantileName(q float64) string { return "p" + strconv.FormatFloat(q, 'f', -1, 64) }

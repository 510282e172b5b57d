package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// Thresholds of the cache-cold rule. A cache is warm when the median of
// its hit shares before the fall was 80 % or more (a warm cache of a
// skewed key space hits 80–99 %); it went cold when, from one scrape on,
// cacheScrapes scrapes in a row and the median of every scrape to the end
// hit under half that. The fall counts when the client's median latency
// rose with it, 2× and 1 ms or more: a flushed Redis in front of a slow
// read took trial A's median from 0.58 ms to 26.5 ms while its hit share
// fell from 100 % to 2–37 %, climbing back over the cache-miss rule's 10 %.
const (
	coldWarm    = 0.8
	coldFall    = 0.5
	coldLatency = 2.0
)

// KindCacheCold is a warm cache that went cold during the run (flushed,
// restarted, its keys expired together) while the latency rose.
const KindCacheCold = "cache-cold"

// coldOnset returns the index of the first hit-share point from which the
// cache stayed cold after being warm.
func coldOnset(share []series.Point) (int, bool) {
	last := len(share) - 1
	for k := cacheScrapes; k+cacheScrapes <= len(share); k++ {
		before := aggregate(share, StatMedian, share[0].Sec, share[k-1].Sec)
		if before < coldWarm || share[k-1].Value < coldFall*before {
			continue
		}
		fell := true
		for i := k; i < k+cacheScrapes; i++ {
			fell = fell && share[i].Value < coldFall*before
		}
		if fell && aggregate(share, StatMedian, share[k].Sec, share[last].Sec) < coldFall*before {
			return k, true
		}
	}
	return 0, false
}

// cacheColdFinding judges one cache: warm at first, cold from one scrape
// to the end of the lookups, the client's median latency up with it.
func (c *context) cacheColdFinding(l cacheLookups) (Finding, bool) {
	if c.run == nil || len(c.secs) == 0 {
		return Finding{}, false
	}
	gets, _ := c.plus(l.hits, l.misses)
	shareSrc, all := c.ratio(l.hits, gets)
	var share []series.Point // whole seconds with lookups enough to judge
	getsAt := map[int]float64{}
	for _, p := range c.values(gets) {
		getsAt[p.Sec] = p.Value
	}
	for _, p := range all {
		if p.Sec < c.whole && getsAt[p.Sec] >= cacheMinGets {
			share = append(share, p)
		}
	}
	k, ok := coldOnset(share)
	if !ok {
		return Finding{}, false
	}
	first, onset, last := share[0].Sec, share[k].Sec, share[len(share)-1].Sec
	p50 := c.client(SrcP50)
	lb := aggregate(c.values(p50), StatMedian, first, onset-1)
	la := aggregate(c.values(p50), StatMedian, onset, last)
	if math.IsNaN(lb) || math.IsNaN(la) || la < coldLatency*lb || la-lb < satLatencyAbs {
		return Finding{}, false // a cache whose misses cost nothing the client saw
	}
	b := newBuilder(KindCacheCold, Warning)
	on := b.second(onset, StatOnset, "the first scrape of the fall")
	hb := b.add(c.fig(shareSrc, StatMedian, first, onset-1, UnitFraction, "share of the lookups that hit before the fall (median of the scrapes)"))
	ha := b.add(c.fig(shareSrc, StatMedian, onset, last, UnitFraction, "share of the lookups that hit from the fall on (median of the scrapes)"))
	mb := b.add(c.fig(p50, StatMedian, first, onset-1, UnitDuration, "the client's median latency before the fall (median of the seconds)"))
	ma := b.add(c.fig(p50, StatMedian, onset, last, UnitDuration, "the client's median latency from the fall on (median of the seconds)"))
	rose := b.derive(StatRatio, UnitRatio, "the median latency from the fall on over before", ma, mb)
	miss := b.add(c.fig(l.misses, StatMean, onset, last, UnitNumber, "misses per second from the fall on"))
	g := b.add(c.fig(gets, StatMean, onset, last, UnitNumber, "lookups per second from the fall on"))
	b.title(name(l.title), " went cold at ", on, ": hits fell from ", hb, " to ", ha, " of lookups (", name(l.series), "), median latency ",
		mb, " → ", ma)
	b.evidence(hb, "hits before ", b.second(onset, StatSecond, "the first scrape of the fall"), ": ", hb, " of lookups (median of the scrapes from ",
		b.second(first, StatSecond, "the first scrape with lookups"), "): the cache was warm")
	b.evidence(ha, "from then to ", b.second(last, StatSecond, "the last scrape with lookups"), ": ", ha, " (median), ", miss, " misses of ", g,
		" lookups/s, each gone on to the store behind it")
	b.evidence(rose, "the client's median latency: ", mb, " before, ", ma, " from the fall on (", rose, "), with the misses")
	return b.done(onset, last), true
}

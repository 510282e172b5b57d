package diagnose

import (
	"github.com/loadlens/loadlens/internal/series"
)

// Thresholds of the cache-miss rule. Under 10 % hits a cache saves less
// than a tenth of what it stands in for: the load goes on to the DB nearly
// whole. A warm cache of a skewed key space hits 80–99 %, and one warming
// up passes 10 % within a few scrapes (a tenth of its keys read once), so
// the ratio must stay under the floor to the last scrape with lookups.
// Two lookups per second is the floor of a cache worth judging: an idle
// cache's few lookups (a health check, a scheduled job) miss by nature and
// cost the DB next to nothing, while a cache under even a light test's load
// is read more often (8 a second at 8 requests a second).
const (
	cacheHitFloor = 0.1 // hits over lookups
	cacheMinGets  = 2   // lookups per second at a scrape that counts
	cacheScrapes  = 3   // counted scrapes in a row under the floor, up to the last
)

// KindCacheMiss is a cache consulted but (almost) never hitting.
const KindCacheMiss = "cache-miss"

// cacheLookups is one cache's hits and misses per second, by scrape.
type cacheLookups struct {
	title        string // "cache apps (role=app)" or "Redis keyspace (role=cache)"
	hits, misses string // the sources
	series       string // the series a title names
	micrometer   bool   // a named cache's own counts; else a Redis's keyspace, whose misses count every read of an absent key
}

// cacheMiss finds caches that went cold during the run (cachecold.go) or
// whose lookups kept missing: Micrometer's
// cache_gets_total{result="hit"|"miss"} (Spring Cache, with statistics on)
// per cache, else redis_exporter's keyspace hits and misses.
func cacheMiss(c *context) []Finding {
	var fs []Finding
	redis := true
	for _, l := range c.cacheLookups() {
		if !l.micrometer && !redis {
			continue
		}
		f, ok := c.cacheColdFinding(l) // a cache that was warm says more than its misses
		if !ok {
			f, ok = c.cacheMissFinding(l)
		}
		if ok {
			fs = append(fs, f)
			redis = redis && !l.micrometer // a named cache says more than the keyspace it lives in
		}
	}
	return fs
}

// cacheLookups pairs each hit series with its miss series.
func (c *context) cacheLookups() []cacheLookups {
	var out []cacheLookups
	for _, s := range c.set.Find("cache_gets_total") {
		if s.Label("result") != "hit" {
			continue
		}
		for _, m := range c.set.Find("cache_gets_total") {
			if m.Label("result") == "miss" && sameLabels(s.Labels, m.Labels, []string{"result"}) {
				out = append(out, cacheLookups{title: "Cache " + s.Label("cache"), hits: c.ofSeries(s), misses: c.ofSeries(m),
					series: "cache_gets_total, " + describe(s, "result"), micrometer: true})
			}
		}
	}
	for _, s := range c.set.Find("redis_keyspace_hits_total") {
		if m := sibling(c.set, "redis_keyspace_misses_total", s); m != nil {
			out = append(out, cacheLookups{title: "Redis keyspace", hits: c.ofSeries(s), misses: c.ofSeries(m), series: titled(s)})
		}
	}
	return out
}

// plus defines the source a + b: a's value and b's added at the seconds
// both have one.
func (c *context) plus(a, b string) (string, []series.Point) {
	return c.combine(a, " + ", b, func(x, y float64) (float64, bool) { return x + y, true })
}

// cacheMissFinding judges one cache: the counted scrapes (at least
// cacheMinGets lookups per second) under the floor, cacheScrapes or more
// of them in a row up to the last counted one.
func (c *context) cacheMissFinding(l cacheLookups) (Finding, bool) {
	gets, pts := c.plus(l.hits, l.misses)
	ratioSrc, _ := c.ratio(l.hits, gets)
	hits := map[int]float64{}
	for _, p := range c.values(l.hits) {
		hits[p.Sec] = p.Value
	}
	last := len(pts) - 1 // the last counted scrape: the end of the lookups
	for last >= 0 && pts[last].Value < cacheMinGets {
		last--
	}
	first := last + 1
	for first > 0 && pts[first-1].Value >= cacheMinGets && hits[pts[first-1].Sec] < cacheHitFloor*pts[first-1].Value {
		first--
	}
	if last+1-first < cacheScrapes {
		return Finding{}, false
	}
	from, to := pts[first].Sec, pts[last].Sec
	b := newBuilder(KindCacheMiss, Warning)
	onset := b.second(from, StatOnset, "the first scrape of the lookups that kept missing")
	h := b.add(c.fig(l.hits, StatMean, from, to, UnitNumber, "hits per second"))
	g := b.add(c.fig(gets, StatMean, from, to, UnitNumber, "lookups per second"))
	ratio := b.derive(StatRatio, UnitFraction, "share of the lookups that hit", h, g)
	m := b.add(c.fig(l.misses, StatMean, from, to, UnitNumber, "misses per second"))
	peak := b.add(c.fig(ratioSrc, StatMax, from, to, UnitFraction, "the highest share of lookups that hit at one scrape"))
	n := b.add(c.fig(gets, StatCount, from, to, UnitCount, "scrapes"))
	floor := b.add(Figure{Value: cacheHitFloor, Unit: UnitFraction, What: "the rule's floor of hits", Stat: StatLimit, From: from, To: to})
	after, why := ": each miss went on to the store behind it", ", each one read from the store behind the cache (the DB)"
	if !l.micrometer {
		after, why = ": reads of keys it did not hold", ": as a cache, each one went on to the store behind it (keyspace misses also count reads that expect no key: a lock, a dedupe check)"
	}
	b.title(name(l.title), " hit ", ratio, " of ", g, " lookups/s from ", onset, " (", name(l.series), ")", after)
	b.evidence(ratio, "hits: ", h, " of ", g, " lookups/s over ", n, " scrapes, at most ", peak, " at one (under ", floor, " at each from ", onset, " to the end of the lookups)")
	b.evidence(m, "misses: ", m, "/s", why)
	return b.done(from, to), true
}

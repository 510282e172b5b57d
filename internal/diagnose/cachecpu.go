package diagnose

import (
	"math"
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// KindCacheCPU is a Redis whose one main thread limited the target: it
// runs every command and script, so a core of it is saturated whatever
// cores the host has; or, its CPU unread, its exporter timed out waiting
// for it while the target fell behind.
const KindCacheCPU = "cache-cpu"

// Cache-CPU thresholds. Trial A39's Redis ran an 800,000-iteration Lua
// loop per request: ~14 ms of its main thread each, ~1 core at 70 req/s
// offered, while it completed 16 req/s on a host whose other processes
// took the rest of its core; its exporter's scrapes timed out from the
// first (INFO waits behind the 64 scripts queued).
const (
	cacheCPUCore     = 0.9 // Redis's main thread at the offered load, in cores: one core is its ceiling
	cacheCPUReadings = 2   // Redis CPU readings within the seconds the queue grew (queueLasted)
	cacheScrapeSlow  = 5.0 // seconds a failed scrape of the cache lasted: it waited for Redis, nothing refused it
	cacheScrapeFast  = 1.0 // seconds the app's scrapes took meanwhile (median): the scraping itself was fine
	cacheScrapeFails = 2   // failed slow scrapes of the cache within the seconds the queue grew
)

// cacheCPU names the cache when a saturation finding's seconds had the
// app's CPU idle and Redis's main thread at a core, counted at the
// offered load; or, with its CPU unread, its exporter's scrapes timing
// out waiting for it while the app's answered.
func cacheCPU(c *context, fs []Finding) []Finding {
	sat := saturationUnlessPool(fs)
	if sat == nil || c.run == nil {
		return nil
	}
	// Judged over the seconds the queue grew, not only the saturation
	// finding's first stretch: Redis's CPU is read every few seconds.
	from, to := sat.From, c.queueLasted(sat.From, sat.To)
	if c.appCPUBusy(from, to) {
		return nil
	}
	for _, t := range c.cacheTargets() {
		if f, ok := c.cacheCPUFinding(t, from, to); ok {
			return []Finding{f}
		}
	}
	for _, t := range c.cacheTargets() {
		if f, ok := c.cacheSilentFinding(t, from, to); ok {
			return []Finding{f}
		}
	}
	return nil
}

// cacheTargets are the target labels of the Redis series and of the
// targets of role cache, in the order first seen.
func (c *context) cacheTargets() []string {
	var out []string
	for _, s := range c.set {
		t := s.Label("target")
		if t == "" || (!strings.HasPrefix(s.Name, "redis_") && s.Label("role") != "cache") {
			continue
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// redisCPUSource is a Redis's CPU in cores: its main thread's user and
// system seconds (Redis 7), else the whole process's; "" when not kept.
func (c *context) redisCPUSource(target string) (src, label string) {
	if src, label = c.redisPairSource(target, redisMainThreadCPU); src != "" {
		return src, label
	}
	return c.redisPairSource(target, redisProcessCPU)
}

// Redis's CPU seconds as redis_exporter names them: user and system.
var (
	redisMainThreadCPU = [2]string{"redis_cpu_user_main_thread_seconds_total", "redis_cpu_sys_main_thread_seconds_total"}
	redisProcessCPU    = [2]string{"redis_cpu_user_seconds_total", "redis_cpu_sys_seconds_total"}
)

// redisPairSource is a Redis's user plus system CPU in cores, by the pair
// of counters named; "" when either is not kept.
func (c *context) redisPairSource(target string, pair [2]string) (src, label string) {
	u, s := c.set.Find(pair[0], "target", target), c.set.Find(pair[1], "target", target)
	if len(u) == 0 || len(s) == 0 {
		return "", ""
	}
	src, _ = c.plus(c.ofSeries(u[0]), c.ofSeries(s[0]))
	return src, pair[0] + " + " + pair[1] + ", " + describe(u[0])
}

// cacheCPUFinding judges one Redis by its own CPU counters, not the
// requests' wall time: the cores its main thread used over from–to,
// scaled to the offered load (offered over completed requests), at a
// core or more.
func (c *context) cacheCPUFinding(target string, from, to int) (Finding, bool) {
	src, label := c.redisCPUSource(target)
	if src == "" || countIn(c.values(src), from, to) < cacheCPUReadings {
		return Finding{}, false
	}
	b := newBuilder(KindCacheCPU, Critical)
	used := b.add(c.fig(src, StatMedian, from, to, UnitCores, "Redis's CPU while the target fell behind (median)"))
	offered := b.add(c.fig(c.client(SrcOffered), StatSum, from, to, UnitCount, "{requests} offered while behind"))
	done := b.add(c.fig(c.client(SrcRequests), StatSum, from, to, UnitCount, "{requests} completed while behind"))
	scale := b.derive(StatRatio, UnitRatio, "requests offered over completed while behind", offered, done)
	need := b.derive(StatProduct, UnitCores, "Redis's CPU at the offered load", used, scale)
	if !(b.fig(need).Value >= cacheCPUCore) || b.fig(done).Value <= 0 {
		return Finding{}, false
	}
	onset := b.second(from, StatSecond, "the first second of the saturation finding")
	b.title("Cache CPU-bound: Redis (", name(describeTarget(target)), ") used ", used, " from ", onset,
		" while the target fell behind, ", need, " at the offered load: Redis runs commands on one thread, so one core is its ceiling whatever the host has")
	b.evidence(used, "Redis's CPU (", name(label), "): ", used, " from ", onset, " to ",
		b.second(to, StatSecond, "the last second the requests in flight grew (the saturation finding's, or later)"), " (median)")
	b.evidence(need, "at the offered load: ", used, " × ", scale, " (", offered, " "+c.counts().Many+" offered, ", done,
		" completed) = ", need, "; its main thread has one core")
	c.cacheScrapeEvidence(b, target, from, to)
	b.f.Remedies = append([]string(nil), cacheCPURemedies...)
	return b.done(from, to), true
}

// cacheSilentFinding judges one cache whose exporter timed out on every
// scrape over from–to while the app's answered: Redis answers INFO only
// between commands, so a slow command or script held its one thread.
func (c *context) cacheSilentFinding(target string, from, to int) (Finding, bool) {
	up, dur, ok := c.scrapeSeries(target)
	if !ok || countIn(c.values(dur), from, to) < cacheScrapeFails {
		return Finding{}, false
	}
	if aggregate(c.values(up), StatMax, from, to) != 0 || aggregate(c.values(dur), StatMin, from, to) < cacheScrapeSlow {
		return Finding{}, false
	}
	appDur, ok := c.appScrapes(from, to)
	if !ok {
		return Finding{}, false
	}
	b := newBuilder(KindCacheCPU, Warning)
	answered := b.add(c.fig(up, StatMax, from, to, UnitNumber, "the cache's scrapes answered while the target fell behind (up, highest)"))
	n := b.add(c.fig(dur, StatCount, from, to, UnitCount, "the cache's scrapes that failed while the target fell behind"))
	waited := b.add(c.fig(dur, StatMin, from, to, UnitDuration, "the shortest of the cache's failed scrapes"))
	app := b.add(c.fig(appDur, StatMedian, from, to, UnitDuration, "the app's scrapes meanwhile (median)"))
	onset := b.second(from, StatSecond, "the first second of the saturation finding")
	end := b.second(to, StatSecond, "the last second the requests in flight grew (the saturation finding's, or later)")
	b.title("Cache not answering while the target fell behind: every scrape of ", name(describeTarget(target)), " from ", onset, " to ", end,
		" timed out (", n, " scrapes, each ", waited, " or more) while the app's answered in ", app,
		": Redis answers only between commands, so a slow command or script held its one thread")
	b.evidence(answered, "the cache's exporter (", name("up, "+describeTarget(target)), "): up ", answered, " at each of its ", n, " scrapes from ", onset, " to ", end, ": none answered")
	b.evidence(waited, "each failed scrape waited ", waited, " or more (", name("scrape_duration_seconds"), "): a timeout, not a refusal; the app's took ", app, " (median)")
	b.f.Remedies = append([]string(nil), cacheCPURemedies...)
	return b.done(from, to), true
}

// cacheScrapeEvidence adds that the cache's exporter timed out over
// from–to, when it did: Redis was too busy to answer INFO.
func (c *context) cacheScrapeEvidence(b *builder, target string, from, to int) {
	up, dur, ok := c.scrapeSeries(target)
	if !ok || aggregate(c.values(up), StatMin, from, to) != 0 {
		return
	}
	if aggregate(c.values(dur), StatMax, from, to) < cacheScrapeSlow {
		return
	}
	slow := b.add(c.fig(dur, StatMax, from, to, UnitDuration, "the cache's longest scrape while the target fell behind"))
	b.evidence(slow, "its exporter's scrapes failed, the longest after ", slow, ": Redis answers INFO only between commands")
}

// scrapeSeries are the sources of a target's up and scrape duration.
func (c *context) scrapeSeries(target string) (up, dur string, ok bool) {
	u, d := c.set.Find("up", "target", target), c.set.Find("scrape_duration_seconds", "target", target)
	if len(u) == 0 || len(d) == 0 {
		return "", "", false
	}
	return c.ofSeries(u[0]), c.ofSeries(d[0]), true
}

// appScrapes is the scrape duration of a target of role app that
// answered every scrape over from–to within cacheScrapeFast (median):
// the scraping itself was not what failed.
func (c *context) appScrapes(from, to int) (string, bool) {
	for _, s := range c.set.Find("scrape_duration_seconds", "role", "app") {
		up, dur, ok := c.scrapeSeries(s.Label("target"))
		if !ok || aggregate(c.values(up), StatMin, from, to) != 1 {
			continue
		}
		if d := aggregate(c.values(dur), StatMedian, from, to); !math.IsNaN(d) && d < cacheScrapeFast {
			return dur, true
		}
	}
	return "", false
}

// countIn is how many of pts fall within from–to.
func countIn(pts []series.Point, from, to int) int {
	n := 0
	for _, p := range pts {
		if p.Sec >= from && p.Sec <= to {
			n++
		}
	}
	return n
}

// describeTarget names a scraped target for a title.
func describeTarget(target string) string { return "target=" + target }

// cacheCPURemedies are the cache's own remedies, cheapest first: more
// app instances or connections only queue more commands for the thread.
var cacheCPURemedies = []string{
	"find the slow command or script (SLOWLOG GET, LATENCY LATEST, INFO commandstats' usec_per_call) and make it cheaper: no long Lua loops, no O(N) commands (KEYS, SMEMBERS, LRANGE 0 -1, SORT) on big keys",
	"compute in the app or precompute the result, and pick a cheaper data structure (a sorted set's ZRANGE by score, a hash's HGET instead of a scan)",
	"spread the load over more Redis shards (Redis Cluster) or read replicas: one Redis runs commands on one core, however many the host has",
	"more app instances or a bigger connection pool only queue more commands for the same thread",
}

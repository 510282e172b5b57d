package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// springCache is Micrometer's cache_gets_total of one Spring cache, hits and
// misses per second at scrapes every 2 s from 0:02, as the spring preset
// keeps them (rates).
func springCache(hits, misses []float64) series.Set {
	l := []string{"cache", "apps", "cache_manager", "cacheManager", "name", "apps", "role", "app"}
	return series.Set{
		mk("cache_gets_total", series.Rate, pts(2, 2, hits...), append(l, "result", "hit")...),
		mk("cache_gets_total", series.Rate, pts(2, 2, misses...), append(l, "result", "miss")...),
	}
}

// redisKeyspace is redis_exporter's keyspace hits and misses, kept as rates.
func redisKeyspace(hits, misses []float64) series.Set {
	return series.Set{
		mk("redis_keyspace_hits_total", series.Rate, pts(2, 2, hits...), "role", "cache", "target", "redis"),
		mk("redis_keyspace_misses_total", series.Rate, pts(2, 2, misses...), "role", "cache", "target", "redis"),
	}
}

// withCache gives cache series a steady run of 30 s at 50 req/s.
func withCache(set series.Set) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		return Input{Run: build(t, layout(modelVUs, "GET /apps/{id}"), steady(30, 50, 10, 20*time.Millisecond)), Series: set}
	}
}

// scale multiplies each value by the matching factor.
func scale(xs []float64, f func(i int) float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f(i)
	}
	return out
}

func TestCacheMiss(t *testing.T) {
	gets := repeat(50, 14)
	share := func(s float64) func(int) float64 { return func(int) float64 { return s } }
	warming := func(i int) float64 { return min(0.95, 0.15*float64(i)) } // 0 %, 15 %, 30 % … of lookups hit
	for _, tc := range []struct {
		name  string
		set   series.Set
		title string // "" when it must stay silent
	}{
		{"a cache that never hits", springCache(scale(gets, share(0.02)), scale(gets, share(0.98))),
			"Cache apps hit 2% of 50 lookups/s from 0:02 (cache_gets_total, cache=apps, cache_manager=cacheManager, name=apps, role=app)"},
		{"a cold start that keeps missing after it", springCache(append(repeat(0, 4), scale(gets[4:], share(0.05))...), gets),
			"Cache apps hit "},
		{"Redis keyspace missing", redisKeyspace(scale(gets, share(0.01)), scale(gets, share(0.99))),
			"Redis keyspace hit 1% of 50 lookups/s from 0:02 (redis_keyspace_hits_total, role=cache, target=redis)"},
		{"a warm cache at 95 % hits", springCache(scale(gets, share(0.95)), scale(gets, share(0.05))), ""},
		{"a cache warming up", springCache(scale(gets, warming), scale(gets, func(i int) float64 { return 1 - warming(i) })), ""},
		{"an idle cache: a lookup a second, all missing", springCache(repeat(0, 14), repeat(1, 14)), ""},
		{"a light load: three lookups a second, all missing", springCache(repeat(0, 14), repeat(3, 14)), "Cache apps hit 0% of 3 lookups/s from 0:02 "},
		{"missing for a few scrapes, then hitting", springCache(append(repeat(1, 5), repeat(45, 9)...), append(repeat(49, 5), repeat(5, 9)...)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := oneOrNone(t, Diagnose(withCache(tc.set)(t)), KindCacheMiss, tc.title, "")
			if !ok {
				return
			}
			if f.Severity != Warning {
				t.Errorf("%v: title %q", f.Severity, title(f))
			}
			if f.To != 28 {
				t.Errorf("covers %d–%d, want to the last scrape 28", f.From, f.To)
			}
		})
	}
}

// TestCacheMissNamesTheCacheOnce: a Spring cache on Redis shows in both
// Micrometer's and redis_exporter's counts; the named cache is the finding.
func TestCacheMissNamesTheCacheOnce(t *testing.T) {
	gets := repeat(50, 14)
	low := func(s float64) []float64 { return scale(gets, func(int) float64 { return s }) }
	set := append(springCache(low(0.02), low(0.98)), redisKeyspace(low(0.02), low(0.98))...)
	got := findingsOf(Diagnose(withCache(set)(t)), KindCacheMiss)
	if len(got) != 1 || !strings.HasPrefix(title(got[0]), "Cache apps") {
		t.Fatalf("findings %s, want the one of cache apps", titles(got))
	}
}

// cacheMissRun is a run whose cache hit 2 % of its lookups, in
// Micrometer's counts or redis_exporter's.
func cacheMissRun(redis bool) func(t *testing.T) Input {
	gets := repeat(50, 14)
	hits, misses := scale(gets, func(i int) float64 { return 0.02 + 0.001*float64(i%3) }), scale(gets, func(i int) float64 { return 0.98 - 0.001*float64(i%3) })
	if redis {
		return withCache(redisKeyspace(hits, misses))
	}
	return withCache(springCache(hits, misses))
}

package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// stepRun is 30 s of 50 req/s whose latency is before until second at,
// after from then on.
func stepRun(set series.Set, before, after time.Duration, at int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(30, 50, 10, before)
		for i := at; i < len(secs); i++ {
			secs[i].reqs[0].dur = even(after, 0.5)
		}
		return Input{Run: build(t, layout(modelVUs, "GET /products/{id}"), secs), Series: set}
	}
}

// flushed is a Redis keyspace at 50 lookups/s, scraped every 2 s from 0:02,
// hitting all of them until 0:12 and then, from 0:14, hits as given.
func flushed(after ...float64) series.Set {
	hits := append(repeat(50, 6), after...)
	misses := make([]float64, len(hits))
	for i, h := range hits {
		misses[i] = 50 - h
	}
	return redisKeyspace(hits, misses)
}

func TestCacheCold(t *testing.T) {
	refilling := []float64{1, 2, 3, 5, 6, 8, 10, 12} // trial A's FLUSHALL: back over 10 % of lookups as keys return
	warming := []float64{0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 47, 48, 49, 49}
	for _, tc := range []struct {
		name  string
		in    func(t *testing.T) Input
		title string // "" when it must stay silent
		miss  bool   // the cache-miss rule fires instead
	}{
		{"a warm cache flushed mid-run while the latency rose", stepRun(flushed(refilling...), time.Millisecond, 25*time.Millisecond, 14),
			"Redis keyspace went cold at 0:14: hits fell from 100% to 11% of lookups (redis_keyspace_hits_total, role=cache, target=redis), median latency 995µs → 24.9ms", false},
		{"a warm cache gone cold for good says so once, not as a cache that never hit", stepRun(flushed(repeat(0.5, 8)...), time.Millisecond, 25*time.Millisecond, 14),
			"Redis keyspace went cold at 0:14: hits fell from 100% to 1% of lookups", false},
		{"a flush whose misses are cheap: the latency did not move", stepRun(flushed(refilling...), time.Millisecond, time.Millisecond, 14), "", false},
		{"a warm cache throughout while the latency rose", stepRun(flushed(repeat(50, 8)...), time.Millisecond, 25*time.Millisecond, 14), "", false},
		{"a cache warming up while the latency fell", stepRun(redisKeyspace(warming, scale(repeat(50, 14), func(i int) float64 { return 1 - warming[i]/50 })),
			25*time.Millisecond, time.Millisecond, 10), "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			f, ok := oneOrNone(t, fs, KindCacheCold, tc.title, "")
			if misses := findingsOf(fs, KindCacheMiss); len(misses) > 0 != tc.miss {
				t.Errorf("cache-miss findings: %s", titles(misses))
			}
			if !ok {
				return
			}
			for _, w := range []string{"hits before 0:14: 100% of lookups", "the client's median latency: 995µs before, 24.9ms from the fall on (25×)"} {
				if !hasEvidence(f, w) {
					t.Errorf("no evidence %q:\n%s", w, findingText(f))
				}
			}
			if f.From != 14 || !strings.Contains(strings.Join(f.Remedies, "\n"), "warm it again") {
				t.Errorf("from %d, remedies %q", f.From, f.Remedies)
			}
		})
	}
}

// steppedOnBusyHost is an open run of 30 s at 100 req/s on a generator
// host busy with other processes, its lag p99 lag from 0:10 on; the target
// answers in 1 ms until 0:20 and in after from then on, plus the lag.
func steppedOnBusyHost(lag, lagAfter, after time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(30, 100, 3, time.Millisecond)
		for i := 10; i < len(secs); i++ {
			secs[i].lag = lag
			if i >= 20 {
				secs[i].lag = lagAfter
				secs[i].reqs[0].dur = even(after, 0.3)
			}
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /products/{id}"), secs), Series: starvedSeries(repeat(0.03, 30), repeat(0.01, 30), 2)}
	}
}

// TestHostBusyFollowsATargetStep checks that a step of the target's median
// the generator's own delay cannot explain keeps the busy host's finding
// from saying the numbers are not the target's, and that a rise the lag
// explains does not.
func TestHostBusyFollowsATargetStep(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
	}{
		{"the median stepped 60× at 0:20 while the lag p99 stayed 25 ms", steppedOnBusyHost(25*time.Millisecond, 25*time.Millisecond, 60*time.Millisecond),
			&expect{Warning, [2]int{10, 10}, [2]int{29, 29}, []string{"but the target's median latency rose ", " at 0:20, more than the generator's own delay explains"},
				[]string{"the target's median latency stepped up at 0:20: ", "while the generator's lag p99 was 25.0ms (median): a delay of that size cannot raise the median that much"}}},
		{"the median rose with the lag: the generator's", steppedOnBusyHost(25*time.Millisecond, 80*time.Millisecond, 60*time.Millisecond),
			&expect{Critical, [2]int{10, 10}, [2]int{29, 29}, []string{"the numbers are not the target's"}, nil}},
		{"a flat median on a busy host", steppedOnBusyHost(25*time.Millisecond, 25*time.Millisecond, time.Millisecond),
			&expect{Critical, [2]int{10, 10}, [2]int{29, 29}, []string{"the numbers are not the target's"}, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), KindHostBusy, tc.want)
		})
	}
}

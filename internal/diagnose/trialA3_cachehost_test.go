package diagnose

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestTrialA3CacheHost diagnoses outside trial A3's Redis runs (copied to
// testdata/corpus): a Go app at 1,500 req/s over a Redis whose core three
// CPU hogs shared (c4-redis: Redis got ~0.07 cores, p95 4.95 ms against a
// p50 of 258 µs; its host's CPU 1 full from 0:00, both CPUs full at
// 0:06–0:13), and the same without hogs (c4-redis-nohog, healthy), beside
// the trial's healthy runs, which must stay silent. c4-redis read "no
// bottleneck found" and only "cache CPU busy … context".
func TestTrialA3CacheHost(t *testing.T) {
	starvedRedis := []string{"cache host CPU taken by other processes from 0:06", "by other processes; Redis itself used",
		"its commands waited for a CPU", "with one of its CPUs full from the run's start"}
	replayTrials(t, []replayCase{
		{"c4-redis: the cache host's CPU taken from Redis is named", "trialA3-c4-redis", KindTargetHostBusy,
			&expect{Warning, [2]int{6, 6}, [2]int{13, 13}, starvedRedis,
				[]string{"p95 4.95ms against a p50 of 258µs", "CPU 1 of the host: full at every scrape from 0:00"}}, nil},
		{"c4-redis: the host's full CPU is not Redis's saturation", "trialA3-c4-redis", KindCPUSaturation,
			&expect{Info, [2]int{6, 6}, [2]int{13, 13}, []string{"cache host CPU busy: 100% busy", "not cache's own saturation: it used 0.0693 cores of the 1 core it may use"}, nil},
			[]string{"the client's latency did not rise with it"}},
		{"c4-redis: Redis far below its one core is no cache CPU of its own", "trialA3-c4-redis", KindCacheCPU, nil, nil},
		{"c4-redis-nohog: the same Redis on a quiet host", "trialA3-c4-redis-nohog", KindTargetHostBusy, nil, nil},
		{"c6-open30: healthy", "trialA3-c6-open30", KindTargetHostBusy, nil, nil},
		{"c6-open70: healthy", "trialA3-c6-open70", KindTargetHostBusy, nil, nil},
		{"c6-closed30: healthy", "trialA3-c6-closed30", KindTargetHostBusy, nil, nil},
		{"c6-closed70: healthy", "trialA3-c6-closed70", KindTargetHostBusy, nil, nil},
		{"c1-40pct: healthy", "trialA3-c1-40pct", KindTargetHostBusy, nil, nil},
		{"s39 Redis at its own core: cache-cpu's, not its host's", "trial2s39-rediscpu", KindTargetHostBusy, nil, nil},
	})
}

// TestCacheHostBusy: a Redis host of role cache going from 30 % to 95 %
// busy at 0:10 under a steady load, with Redis's own CPU (redis_exporter's
// user and system seconds) of the cores given: other processes' only when
// Redis used little of its one core, and only on the host of its role.
func TestCacheHostBusy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cores    float64 // Redis's user + system CPU, in cores
		role     string  // Redis's role label
		busy     float64 // the host's busy share from 0:10
		fires    bool
		inTitle  string
		severity Severity
	}{
		{"Redis at 0.05 cores on its full host", 0.05, "cache", 0.95, true, "Redis itself used 5% of a core (node_cpu_seconds_total, role=cache, target=host), but the client's latency did not rise with it", Info},
		{"Redis at 0.8 of its core: its own ceiling (cache-cpu), not other processes'", 0.8, "cache", 0.95, false, "", 0},
		{"Redis on another role's host", 0.05, "db", 0.95, false, "", 0},
		{"the host below full", 0.05, "cache", 0.85, false, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := nodeCPUOf("cache", 0.3, tc.busy, 10)
			set = append(set, mk("node_cpu_count", series.Gauge, pts(0, 5, repeat(2, 9)...), "role", "cache", "target", "host"),
				mk("redis_cpu_user_seconds_total", series.Rate, pts(0, 5, repeat(tc.cores*0.6, 9)...), "role", tc.role, "target", "redis"),
				mk("redis_cpu_sys_seconds_total", series.Rate, pts(0, 5, repeat(tc.cores*0.4, 9)...), "role", tc.role, "target", "redis"))
			f, ok := findKind(Diagnose(withSeries(set)(t)), KindTargetHostBusy)
			if ok != tc.fires {
				t.Fatalf("target-host-busy %v (%s); want %v", ok, title(f), tc.fires)
			}
			if ok && (f.Severity != tc.severity || !strings.Contains(title(f), tc.inTitle)) {
				t.Errorf("%v %q; want %v with %q", f.Severity, title(f), tc.severity, tc.inTitle)
			}
		})
	}
}

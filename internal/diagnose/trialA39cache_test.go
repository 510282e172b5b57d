package diagnose

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestTrialA39Replays diagnoses the run.db files of outside trial A39 and
// its reruns again (copied to testdata/corpus): a Redis whose every
// request ran an 800,000-iteration Lua loop (its exporter timed out from
// the first scrape), the same at 600,000 rerun here, one at 200,000 whose
// CPU was read (a third of a core: not the limit), the trial's earlier
// runs whose Redis idled or kept up, and a Spring service
// whose requests the graceful stop cut off.
func TestTrialA39CacheReplays(t *testing.T) {
	replayTrials(t, []replayCase{
		{"redis-cpu: offered comes from the schedule, the 1,643 requests the graceful stop cut off left out", "trialA39-rediscpu", KindCPUSaturation,
			&expect{Critical, [2]int{0, 0}, [2]int{0, 99}, []string{"host CPU saturated"}, []string{"79 requests completed of 210 offered"}}, []string{"of 508 offered"}},
		{"redis-cpu: a one-request flow cut off at the stop, whose last seconds completed nothing, fell behind", "trialA39-rediscpu", KindSaturation,
			&expect{Warning, [2]int{0, 0}, [2]int{39, 39}, []string{"Saturation: throughput stayed below the offered load from 0:00 to 0:39", "70 req/s offered"}, nil}, nil},
		{"redis-cpu: an exporter that timed out on Redis while the app's answered is the cache's evidence", "trialA39-rediscpu", KindCacheCPU,
			&expect{Warning, [2]int{0, 0}, [2]int{39, 39}, []string{"Cache not answering while the target fell behind: every scrape of target=cache from 0:00 to 0:39 timed out (3 scrapes"},
				[]string{"up 0 at each of its 3 scrapes from 0:00 to 0:39: none answered"}}, nil},
		{"redis-cpu rerun (600,000 iterations): the same", "trialA39-rediscpu-rerun", KindCacheCPU,
			&expect{Warning, [2]int{0, 0}, [2]int{29, 29}, []string{"Cache not answering", "timed out (2 scrapes"}, nil}, nil},
		{"redis-light (200,000 iterations): a third of a core of Redis is not its limit", "trialA39-redislight", KindCacheCPU, nil, nil},
		{"redis-healthy (the trial's earlier run, 60 req/s kept up): Redis at 0.07 cores is silent", "trialA39-redishealthy", KindCacheCPU, nil, nil},
		{"redis-idle (the trial's first run): a target behind a starved generator with Redis idle names no cache", "trialA39-redisidle", KindCacheCPU, nil, nil},
		{"alloc-gc: errors start at the schedule's 100 req/s, not 148", "trialA39-allocgc", KindErrorsAtLoad,
			&expect{Critical, [2]int{39, 39}, [2]int{0, 99}, []string{"Errors start at 100 req/s offered (0:39)"}, nil}, []string{"148 req/s"}},
	})
}

// TestCacheCPUReadsRedisCounters gives the light Redis run's CPU series
// four times their values: 0.68 cores of Redis's main thread while it
// completed two requests of three offered need more than its one core.
// Judged over 0:01–0:29, the seconds its busy VUs kept growing (369 at
// the saturation finding's end, 683 at 0:29), not only 0:01–0:10.
func TestCacheCPUReadsRedisCounters(t *testing.T) {
	for _, tc := range []struct {
		scale float64
		want  *expect
	}{
		{1, nil},
		{4, &expect{Critical, [2]int{1, 1}, [2]int{29, 29}, []string{"Cache CPU-bound: Redis (target=cache) used", "at the offered load: Redis runs commands on one thread"},
			[]string{"redis_cpu_user_main_thread_seconds_total + redis_cpu_sys_main_thread_seconds_total"}}},
	} {
		in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialA39-redislight.db"))
		in.Series = scaledSeries(in.Series, tc.scale, "redis_cpu_")
		f, found := expectKind(t, Diagnose(in), KindCacheCPU, tc.want)
		if found && !slices.Contains(f.Remedies, cacheCPURemedies[0]) {
			t.Errorf("scale %g: remedies %q lack the slow command's", tc.scale, f.Remedies)
		}
	}
}

// scaledSeries is set with the points of the series whose name starts
// with prefix multiplied by k.
func scaledSeries(set series.Set, k float64, prefix string) series.Set {
	out := make(series.Set, len(set))
	for i, s := range set {
		c := *s
		if strings.HasPrefix(s.Name, prefix) {
			c.Points = make([]series.Point, len(s.Points))
			for j, p := range s.Points {
				c.Points[j] = series.Point{Sec: p.Sec, Value: p.Value * k}
			}
		}
		out[i] = &c
	}
	return out
}

package diagnose

import "testing"

// TestTrial2s39CacheReplays diagnoses the run.db of the s39 re-score
// trial's Redis run (copied to testdata/corpus): an 800,000-iteration Lua
// loop per request at 70 req/s, whose completions came in bursts, so the
// saturation finding ends at 0:14 while the busy VUs grew to 1,615 at
// 0:39. Redis's main thread was read three times over the hold (0.27,
// 0.43, 0.54 cores), once within 0:00–0:14: judged over the seconds the
// queue grew it used 0.43 cores × 2,800 offered / 1,185 completed, a core.
func TestTrial2s39CacheReplays(t *testing.T) {
	replayTrials(t, []replayCase{
		{"rank-redis-cpu: the saturation finding's first stretch is cut short by bursty completions", "trial2s39-rediscpu", KindSaturation,
			&expect{Warning, [2]int{0, 0}, [2]int{14, 14}, []string{"Saturation: throughput stayed below the offered load from 0:00 to 0:14"}, nil}, nil},
		{"rank-redis-cpu: Redis's CPU over the seconds the queue grew, at the offered load, is its one core", "trial2s39-rediscpu", KindCacheCPU,
			&expect{Critical, [2]int{0, 0}, [2]int{39, 39}, []string{"Cache CPU-bound: Redis (target=cache) used 0.43 cores", "1.02 cores at the offered load"},
				[]string{"2,800 requests offered, 1,185 completed", "its exporter's scrapes failed"}}, nil},
	})
}

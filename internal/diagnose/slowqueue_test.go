package diagnose

import "testing"

// TestSlowQueue replays four steps of a capacity search against gunicorn
// with 2 sync workers whose handler sleeps 50 ms (39.6 req/s at most, its
// CPU idle), 15 s each: at 45/s (1.15× what it served, under behind's 1.2×)
// and at 41.25/s (2.3 req/s short, under its 5 req/s) the queue grew,
// p99 171 ms → 2 s and p95 51 ms → 898 ms, and both read "throughput
// followed the offered load"; at 39.4/s (p95 224 ms, the SLO held) and
// 37.5/s the rule stays silent.
func TestSlowQueue(t *testing.T) {
	replayTrials(t, []replayCase{
		{"45/s offered, 39 served", "pyworkers-45", KindSaturation,
			&expect{Warning, [2]int{0, 0}, [2]int{14, 14}, []string{"Saturation: throughput stayed below the offered load from 0:00 to 0:14: 39 req/s of 45 req/s offered"},
				[]string{"were in flight at the end: they queued"}}, nil},
		{"41.25/s offered, 39 served", "pyworkers-41", KindSaturation,
			&expect{Warning, [2]int{0, 0}, [2]int{14, 14}, []string{"39 req/s of 41 req/s offered (medians), mean latency 104ms → 835ms"}, nil}, nil},
		{"39.4/s: at the edge, within the SLO", "pyworkers-39", KindSaturation, nil, nil},
		{"37.5/s: below it", "pyworkers-37", KindSaturation, nil, nil},
	})
}

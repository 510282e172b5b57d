package diagnose

import "testing"

// TestTrialA40CPUStarved diagnoses step 1 (20 req/s) of two capacity
// searches of outside trial A40 (copied to testdata/corpus): a CPU-bound Go
// service (4 workers × 10 ms, GOMAXPROCS 1, taskset -c 1) on 127.0.0.1, on
// a 2-core host other jobs kept at load 10–25. It used 0.07–0.34 of its
// core while the host was full from the first second; once without
// node_exporter (the step read "no bottleneck found" though it completed
// 6, 17 and 11 of 20 req/s in its first seconds), once with it labelled
// role: app (the host's CPU read "App CPU saturated: 100% busy"); and
// step 5 of fixA2's rerun of the first at 45 req/s, whose app used
// 0.24–0.62 of its core and queued at 0:11–0:15 (p50 up to 1.1 s) with
// its scrapes at 0:04, 0:06 and 0:12 missed, judged "FAIL, the target's":
// the load queued at 0:05 and 0:11–0:15, not at the onset; and
// step 3 of the second rerun at 30 req/s, the host full from 0:00, the app
// at 0.16–0.43 of its core, which queued at 0:13–0:15 (8, 29, 33 of 30
// req/s, p50 up to 1.1 s), the run's converged 28.8 iterations/s, exit 0.
func TestTrialA40CPUStarved(t *testing.T) {
	cases := []struct {
		name  string
		db    string
		local []string // Input.LocalTargets
		kind  string
		want  *expect // nil: the run must not raise kind
	}{
		{"loopback: the queue of the first seconds, before the target's first CPU reading, is the load's effect", "trialA40-c5-starved", []string{"app"}, KindTargetHostBusy,
			&expect{Critical, [2]int{1, 1}, [2]int{14, 15}, []string{"App CPU taken by other processes from 0:01", "12.5% by itself"},
				[]string{"the load queued", "below its limit, so not its own saturation"}}},
		{"loopback, rerun at 45 req/s: a queue later in the spell, after a missed scrape", "trialA40-c5-live45", []string{"app"}, KindTargetHostBusy,
			&expect{Critical, [2]int{1, 1}, [2]int{15, 15}, []string{"App CPU taken by other processes from 0:01", "24.7% by itself"}, []string{"the load queued"}}},
		{"loopback, rerun at 30 req/s: a queue late in the spell, the host full from the start", "trialA40-c5-live30", []string{"app"}, KindTargetHostBusy,
			&expect{Critical, [2]int{0, 0}, [2]int{15, 15}, []string{"App CPU taken by other processes from 0:00", "17% by itself"}, []string{"the load queued"}}},
		{"node_exporter role app: the host's CPU taken", "trialA40-c5-node", nil, KindTargetHostBusy,
			&expect{Critical, [2]int{2, 2}, [2]int{14, 14}, []string{"App CPU taken by other processes from 0:02", "16.7% by itself"}, nil}},
		{"node_exporter role app: the host's full CPU is not the app's saturation", "trialA40-c5-node", nil, KindCPUSaturation,
			&expect{Info, [2]int{0, 0}, [2]int{14, 14}, []string{"App host CPU busy: 100% busy", "not App's own saturation: it used 0.333 cores of the 1 core it may use"}, nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := replay(tc.db)(t)
			in.LocalTargets = tc.local
			expectKind(t, Diagnose(in), tc.kind, tc.want)
		})
	}
}

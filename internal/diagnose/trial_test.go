package diagnose

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestTrialDefectsStayFixed checks each defect the outside trial of
// 2026-11-24 reported against a run like the one that showed it: what the
// finding must say, and what no finding may say.
func TestTrialDefectsStayFixed(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string
		want  *expect
		never []string // substrings no finding's title may hold
	}{
		{"D: a run its errors stopped after one whole failing second", abortedByErrors(false), KindErrorsAtLoad,
			&expect{Critical, [2]int{2, 2}, [2]int{3, 3}, []string{"Errors from 0:02", "of requests failed, http_5xx 100%"}, nil}, nil},
		{"D: one second of timeouts, 5% of the run", oneBadSecond, KindErrorsAtLoad,
			&expect{Critical, [2]int{8, 8}, [2]int{8, 8}, []string{"Errors from 0:08", "100.00% of requests failed, timeout 100%"}, nil}, nil},
		{"B: a hanging target held every VU: the target's finding, not the generator's", hangingTarget(true), KindTargetHeldVUs,
			&expect{Warning, [2]int{0, 0}, [2]int{2, 2}, []string{"Every VU was waiting for the target from 0:00: 6 iterations dropped, the VU pool held at 5 by max_vus, mean response time 500ms, 100.00% failed"},
				[]string{"24 requests timed out"}}, []string{"The load generator is the bottleneck"}},
		{"B: the same in a run without the pool's series, judged by its timeouts", hangingTarget(false), KindTargetHeldVUs,
			&expect{Warning, [2]int{0, 0}, [2]int{2, 2}, []string{"Every VU was waiting for the target from 0:00: 6 iterations dropped, mean response time 500ms"}, nil},
			[]string{"The load generator is the bottleneck"}},
		{"B: drops held by loadlens's CPU stay the generator's", func(t *testing.T) Input {
			in := hangingTarget(false)(t)
			in.Series = series.Set{mk(GeneratorPoolHeld, series.Gauge, pts(0, 1, 5, 5, 5), "role", "generator", "target", "loadlens", "scenario", "s", "reason", "generator_cpu")}
			return in
		}, KindTargetHeldVUs, nil, nil},
		{"A: an open model starved by CPU hogs on both CPUs names the busy host", starvedOpen(1, 2), KindHostBusy,
			&expect{Critical, [2]int{0, 0}, [2]int{5, 5}, []string{"The generator's host was short of CPU from 0:00: it was busy with other processes, 100% of 2 cores in use, loadlens used 5%; its threads waited for a CPU 3.95× as long as they ran"},
				[]string{"loadlens's threads were runnable but not running for 0.395 cores while they ran 0.1 cores", "iterations started late meanwhile, lag p99 up to 90"}},
			[]string{"The load generator is the bottleneck"}},
		{"A: a closed model sharing its CPU with a hog names the busy host", starvedVUs(1.99, 0, 1, 2, 3, 4, 5, 6, 7), KindHostBusy,
			&expect{Critical, [2]int{0, 0}, [2]int{7, 7}, []string{"The generator's host was short of CPU from 0:00", "its threads waited for a CPU 1.7× as long as they ran"}, nil}, nil},
		{"A: starved on a host with CPUs to spare is the generator's", starvedVUs(1.0, 0, 1, 2, 3, 4, 5, 6, 7), KindGeneratorBound,
			&expect{Critical, [2]int{0, 0}, [2]int{7, 7}, []string{"The load generator is the bottleneck from 0:00: it got less CPU than it asked for; its threads waited for a CPU 1.7× as long as they ran"}, nil}, nil},
		{"A: the VUs' CPU held the pool: drops while latency rose are the generator's", cpuHeldDrops, KindGeneratorBound,
			&expect{Critical, [2]int{2, 2}, [2]int{5, 5}, []string{"3,200 iterations dropped for lack of VUs, the pool held at 1,711 by loadlens's own CPU, used up"},
				[]string{"it holds loadlens's own wait for a CPU"}}, nil},
		{"A: the same run on a quiet host (a twentieth of the wait) is healthy", starvedOpen(0.05, 0.3), KindHostBusy, nil, nil},
		{"A: nor is it the generator's", starvedOpen(0.05, 0.3), KindGeneratorBound, nil, nil},
		{"A: a light run whose wake-ups waited a little on a loaded host", lightOnALoadedHost, KindGeneratorBound, nil, nil},
		{"A: two starved seconds are a hiccup", starvedVUs(1.99, 3, 4), KindHostBusy, nil, nil},
		{"D: requests the stop interrupted are not the target's errors", abortedByErrors(true), KindErrorsAtLoad, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			fs := Diagnose(in)
			if _, found := expectKind(t, fs, tc.kind, tc.want); !found {
				return
			}
			if v := Healthy(in, fs); v != nil && tc.want.severity >= Warning {
				t.Errorf("a run with a %s finding is called healthy: %s", tc.kind, Join(v.Parts, v.Figures, rawValue))
			}
			for _, g := range fs {
				for _, bad := range tc.never {
					if strings.Contains(title(g), bad) {
						t.Errorf("finding %q says %q", title(g), bad)
					}
				}
			}
		})
	}
}

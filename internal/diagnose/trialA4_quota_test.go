package diagnose

import (
	"strings"
	"testing"
)

// TestTrialA4Quota replays trial A4's case 3: a CPU-bound Go service on
// 127.0.0.1 in a cgroup v1 quota of 0.5 cores (GOMAXPROCS 2), on a 2-core
// host other processes kept busy; the app is a local target, as the CLI
// reads it. In run150b the kernel throttled 394 of 398 periods; in run1 the
// app was throttled in ~25 % of periods and starved by the host.
func TestTrialA4Quota(t *testing.T) {
	cases := []replayCase{
		{"run150b: throttled every period: the app at its quota, not below it", "trialA4-case3-run150b", KindTargetHostBusy, nil,
			[]string{"below its limit, so not its own saturation"}},
		{"run150b: the quota stands as the app's limit", "trialA4-case3-run150b", KindCPUThrottled,
			&expect{Critical, [2]int{0, 0}, [2]int{38, 38}, []string{"App CPU throttled 100% of periods at its cgroup quota of 0.5 cores"}, nil}, nil},
		{"run150b: the host busy before the load, its queue the quota's: context", "trialA4-case3-run150b", KindCPUSaturation,
			&expect{Info, [2]int{0, 0}, [2]int{38, 38}, []string{"host CPU busy: 100% busy"},
				[]string{"the load queued at App's cgroup CPU quota (the cpu-throttled finding), not for this CPU"}},
			[]string{"host CPU saturated", "profile the busiest code"}},
		{"run1: the throttling title from whole seconds, not the 0.2 s tail at 0:54", "trialA4-case3-run1", KindCPUThrottled,
			&expect{Critical, [2]int{3, 3}, [2]int{53, 53}, []string{"App CPU throttled 70% of periods"}, nil},
			[]string{"at 0:54", "throttled 100% of periods"}},
		{"run1: the app starved below its quota stays taken by other processes", "trialA4-case3-run1", KindTargetHostBusy,
			&expect{Critical, [2]int{1, 1}, [2]int{31, 31}, []string{"App CPU taken by other processes from 0:01"}, nil}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := replay(tc.db)(t)
			in.LocalTargets = []string{"app"}
			fs := Diagnose(in)
			expectKind(t, fs, tc.kind, tc.want)
			for _, g := range fs {
				text := findingText(g) + "\n" + strings.Join(g.Remedies, "\n")
				for _, bad := range tc.never {
					if strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}

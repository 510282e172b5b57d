package diagnose

import "testing"

// jvmPinnedHogged is trial s39's item-cache app: a JVM pinned with taskset
// to one of the host's 2 cores (system_cpu_count 1) while other processes
// fill the host from second from: process_cpu_usage 0.149 of both CPUs,
// that is 0.298 cores, 29.8 % of the 1 core it may use.
func jvmPinnedHogged(from int) func(t *testing.T) Input {
	return slowFrom(jvmScrape{cores: level(0.3, 0.298, from), count: level(1, 1, 0), proc: level(0.15, 0.149, from), sys: level(0.4, 1, from)}.series(), from)
}

// TestJVMSharesOfOneDenominator checks that target-host-busy states a
// JVM's CPU against one denominator: Micrometer's process_cpu_usage is a
// share of the host's CPUs, not of the one core a pinned JVM may use, so
// beside its cores over that core the finding states cores, not two
// percentages of different CPUs (14.9 % "of them", then 29.8 % of 1 core).
func TestJVMSharesOfOneDenominator(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
	}{
		{"pinned to 1 of 2 cores, the host full: shares of the host's 2 CPUs, its own use in cores", jvmPinnedHogged(10),
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39},
				[]string{"App CPU taken by other processes from 0:10: its host's CPUs 100% busy, 85.1% by the host's other processes, 14.9% by itself"},
				[]string{"the host's CPUs (more than it may use): 100% in use",
					"the target itself: 0.298 cores of the 2 cores process_cpu_usage is a share of (14.9%); other processes: 85.1%",
					"it used 0.298 cores of the 1 core it may use (median): below its limit"}}},
		{"a cpuset of 1 core: Micrometer's shares are of that core, stated as before", slowFrom(jvmHogged(10), 10),
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39},
				[]string{"App CPU taken by other processes from 0:10: its CPUs 100% busy, 55% by the host's other processes, 45% by itself"},
				[]string{"the target itself: 45% of them", "it used 45% of the 1 core it may use (median)"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), KindTargetHostBusy, tc.want)
		})
	}
}

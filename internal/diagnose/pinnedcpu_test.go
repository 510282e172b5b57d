package diagnose

import (
	"sort"
	"testing"
)

// TestPinnedCoreTakenByOthers reads node_exporter's CPUs one by one for a
// target pinned to one of them: two hogs on the JVM's core of two fill it
// while the host reads half busy (the catalogue's host-busy case).
func TestPinnedCoreTakenByOthers(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
	}{
		{"hogs on its core from the run's start: no quiet second to compare", withSeries(hoggedCore(0, "1")),
			&expect{Warning, [2]int{0, 0}, [2]int{39, 39},
				[]string{"App CPU taken by other processes from 0:00: its CPUs 100% busy, 75% by the host's other processes, 25% by itself (CPU 1, node_cpu_seconds_total, role=host, target=host), from the run's start"},
				[]string{"the target itself: 0.25 cores of the 1 core it may run on (25%)", "the host's other CPUs: at most 8% busy (median), well below the target's own 0.25 cores"}}},
		{"hogs on its core from 0:10, and the client slows", slowFrom(hoggedCore(10, "1"), 10),
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39}, []string{"App CPU taken by other processes from 0:10", "(CPU 1, node_cpu_seconds_total"},
				[]string{"the client's mean latency: 30.0ms before 0:10, 90.0ms just after"}}},
		{"hogs on its core from 0:10, the client as fast: context", withSeries(hoggedCore(10, "1")),
			&expect{Info, [2]int{10, 10}, [2]int{39, 39}, []string{"but the client's latency did not rise with it: context"}, nil}},
		{"the catalogue's host-busy case as measured on a quiet host", withSeries(measuredHostBusy()),
			&expect{Warning, [2]int{0, 1}, [2]int{38, 39}, []string{"App CPU taken by other processes from 0:0", "(CPU 1, node_cpu_seconds_total, role=host, target=host), from the run's start"}, nil}},
		{"its core is CPU 0", withSeries(hoggedCore(0, "0")),
			&expect{Warning, [2]int{0, 0}, [2]int{39, 39}, []string{"(CPU 0, node_cpu_seconds_total, role=host, target=host)"}, nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), KindTargetHostBusy, tc.want)
		})
	}
	silent := pinnedSilent()
	var names []string
	for n := range silent {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Run("silent: "+n, func(t *testing.T) {
			expectKind(t, Diagnose(slowFrom(silent[n], 0)(t)), KindTargetHostBusy, nil)
		})
	}
}

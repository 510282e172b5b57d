package diagnose

import (
	"math"
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

// TestHostBusyReadsTheSumsBesideEachCPU: the node preset keeps each CPU's
// idle and iowait beside the sums over CPUs; the host's busy share reads
// the sums alone (adding the per-CPU idle time read 37 % for 54 %), and
// each CPU's its own.
func TestHostBusyReadsTheSumsBesideEachCPU(t *testing.T) {
	c := newContext(withSeries(hoggedCore(0, "1"))(t))
	hosts := c.hostCPU()
	if len(hosts) != 1 {
		t.Fatalf("%d hosts, want 1", len(hosts))
	}
	want := map[string]float64{hosts[0].source: 0.54}
	per := c.perCPUHosts()
	if len(per) != 1 || len(per[0].cpus) != 2 {
		t.Fatalf("per-CPU hosts %+v, want one of 2 CPUs", per)
	}
	want[per[0].cpus[0].source], want[per[0].cpus[1].source] = 0.08, 1
	for src, w := range want {
		pts := c.values(src)
		if len(pts) != 40 {
			t.Fatalf("%s: %d points, want 40", src, len(pts))
		}
		for _, p := range pts {
			if math.Abs(p.Value-w) > 1e-9 {
				t.Fatalf("%s at %d = %v, want %v", src, p.Sec, p.Value, w)
			}
		}
	}
}

// TestValueAtSortedIsValueAt: the binary search finds what the scan does,
// on scrapes with gaps, before the first and long after the last.
func TestValueAtSortedIsValueAt(t *testing.T) {
	points := pts(3, 1, 1, 2, 3)
	points = append(points, pts(10, 5, 4, 5)...)
	for sec := range 40 {
		v, ok := valueAt(points, sec)
		w, okW := valueAtSorted(points, sec)
		if v != w || ok != okW {
			t.Errorf("at %d: valueAtSorted %v %v, valueAt %v %v", sec, w, okW, v, ok)
		}
	}
}

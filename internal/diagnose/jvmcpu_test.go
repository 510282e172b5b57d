package diagnose

import (
	"strings"
	"testing"
)

// TestJVMCPUAndHostBusy judges a JVM's CPU against what it may use and
// names the CPU other processes took apart from its own saturation. The
// series are those measured on pinned and cgroup-limited JVMs.
func TestJVMCPUAndHostBusy(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		kind string
		want *expect // nil: the run must not raise kind
	}{
		{"pinned to one of two cores, full: 97% of 1 core, not 48% of the host", slowFrom(jvmPinned(0.97, 10), 10), KindCPUSaturation,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39},
				[]string{"App CPU saturated: 97% of 1 core (process_cpu_time_ns_total, role=app, target=app) from 0:10"},
				[]string{"it used 0.97 cores of the 1 core it may use"}}},
		{"pinned, full: its own CPU, not the host's other processes", slowFrom(jvmPinned(0.97, 10), 10), KindTargetHostBusy, nil},
		{"pinned, half its core", slowFrom(jvmPinned(0.5, 10), 10), KindCPUSaturation, nil},
		{"pinned, half its core: nothing took it", slowFrom(jvmPinned(0.5, 10), 10), KindTargetHostBusy, nil},
		{"cgroup quota of half a core, full: process_cpu_usage is of the quota", slowFrom(jvmQuota(0.5), 10), KindCPUSaturation,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39}, []string{"App CPU saturated: 100% of its CPUs busy (process_cpu_usage, role=app, target=app) from 0:10"}, nil}},
		{"cgroup quota, full: system_cpu_usage is the cgroup's own, not others'", slowFrom(jvmQuota(0.5), 10), KindTargetHostBusy, nil},
		{"cgroup quota, half", slowFrom(jvmQuota(0.25), 10), KindCPUSaturation, nil},
		{"cgroup quota, half: nothing took it", slowFrom(jvmQuota(0.25), 10), KindTargetHostBusy, nil},
		{"pinned, offered more than its core serves from the start: the queue is the load's effect", jvmFlatOverload, KindCPUSaturation,
			&expect{Critical, [2]int{0, 0}, [2]int{39, 39}, []string{"App CPU saturated: 98% of 1 core"},
				[]string{"the client from 0:00 to 0:02: 300 requests completed of 390 offered: the load queued"}}},
		{"a hog takes the JVM's core from 0:10 and the client slows", slowFrom(jvmHogged(10), 10), KindTargetHostBusy,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39},
				[]string{"App CPU taken by other processes from 0:10: its CPUs 100% busy, 55% by the host's other processes, 45% by itself (system_cpu_usage, role=app, target=app)"},
				[]string{"it used 45% of the 1 core it may use (median): below its limit", "the client's mean latency: 30.0ms before 0:10, 90.0ms just after"}}},
		{"the hog is not the JVM's own saturation", slowFrom(jvmHogged(10), 10), KindCPUSaturation, nil},
		{"a hog, but the client did not slow: context", withSeries(jvmHogged(10)), KindTargetHostBusy,
			&expect{Info, [2]int{10, 10}, [2]int{39, 39}, []string{"but the client's latency did not rise with it: context"}, nil}},
		{"a hog from the run's start: no quiet second to compare", withSeries(jvmHogged(0)), KindTargetHostBusy,
			&expect{Warning, [2]int{0, 0}, [2]int{39, 39}, []string{"from the run's start: no quiet second to compare this load with"}, nil}},
		{"closed model, pinned and full from the first scrape to the last: the users waited for its CPU", closedWith(jvmPinned(0.97, 0)), KindCPUSaturation,
			&expect{Warning, [2]int{0, 0}, [2]int{39, 39}, []string{"App CPU saturated: 97% of 1 core (process_cpu_time_ns_total, role=app, target=app) from 0:00 to the run's end"}, nil}},
		{"closed model, full for the first 10 s only (a JIT warm-up): context", closedWith(jvmPinned(0.5, 10)), KindCPUSaturation, nil},
		{"closed model, a host full from the start: context, others may have filled it", closedWith(nodeCPUOf("app", 0.97, 0.97, 0)), KindCPUSaturation,
			&expect{Info, [2]int{0, 0}, [2]int{40, 40}, []string{"from the run's start with the load at its full rate: consistent with this load, but not shown to hold it back"}, nil}},
		{"open model, full from the start and no queue: context", withSeries(jvmPinned(0.97, 0)), KindCPUSaturation,
			&expect{Info, [2]int{0, 0}, [2]int{39, 39}, []string{"from the run's start with the load at its full rate: consistent with this load, but not shown to hold it back"}, nil}},
		{"a hog from the start, its onset hidden by the JVM's first burst: no quiet second, not context", slowStart(jvmHoggedFromStartWithBurst()), KindTargetHostBusy,
			&expect{Warning, [2]int{2, 2}, [2]int{39, 39}, []string{"from the run's start: no quiet second to compare this load with"}, nil}},
		{"quiet host", slowFrom(jvmHogged(99), 10), KindTargetHostBusy, nil},
		{"pinned at 85% of its core, the other core full: its core was its own", slowFrom(jvmPinnedBesideBusy(), 10), KindTargetHostBusy, nil},
		{"node_exporter: the host's others take 1.4 of 2 CPUs from a Go service", slowFrom(nodeHogged(15), 15), KindTargetHostBusy,
			&expect{Critical, [2]int{15, 15}, [2]int{40, 40},
				[]string{"App CPU taken by other processes from 0:15: its CPUs 95% busy, 70% by the host's other processes, 25% by itself (node_cpu_seconds_total, role=app, target=host)"},
				[]string{"the target itself: 0.5 cores of the host's 2 cores (25%)"}}},
		{"node_exporter: the host full with the service itself", slowFrom(nodeSelfBusy(), 10), KindTargetHostBusy, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), tc.kind, tc.want)
		})
	}
}

// TestHealthyNamesTheJVMsCPUSeries: a run whose JVM used half its core
// says which CPU series it checked, the ones the CPU rules read.
func TestHealthyNamesTheJVMsCPUSeries(t *testing.T) {
	in := withSeries(jvmPinned(0.5, 10))(t)
	v := Healthy(in, Diagnose(in))
	if v == nil {
		t.Fatal("no healthy verdict")
	}
	text := Join(v.Parts, v.Figures, figureText)
	if want := "CPU (process_cpu_usage, process_cpu_time_ns_total, system_cpu_usage)"; !strings.Contains(text, want) {
		t.Errorf("verdict %q lacks %q", text, want)
	}
}

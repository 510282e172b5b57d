package diagnose

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// jvmScrape is what Micrometer exposed each second (the spring preset at
// 1 s), as functions of the second: the cores the JVM used (the rate of
// process_cpu_time_ns_total over 10⁹), its system_cpu_count, and its
// process_cpu_usage and system_cpu_usage.
type jvmScrape struct {
	cores, count, proc, sys func(sec int) float64
}

// series returns the four series over 40 seconds, labelled as one target.
func (j jvmScrape) series() series.Set {
	var ns, count, proc, sys []float64
	for s := range 40 {
		ns = append(ns, j.cores(s)*1e9)
		count = append(count, j.count(s))
		proc = append(proc, j.proc(s))
		sys = append(sys, j.sys(s))
	}
	labels := []string{"role", "app", "target", "app"}
	return series.Set{
		mk(jvmCPUTime, series.Rate, pts(0, 1, ns...), labels...),
		mk("system_cpu_count", series.Gauge, pts(0, 1, count...), labels...),
		mk("process_cpu_usage", series.Gauge, pts(0, 1, proc...), labels...),
		mk("system_cpu_usage", series.Gauge, pts(0, 1, sys...), labels...),
	}
}

// level is v before second from and after from it.
func level(v, after float64, from int) func(int) float64 {
	return func(s int) float64 {
		if s >= from {
			return after
		}
		return v
	}
}

// The JVMs measured here (docs/findings.md): Spring Boot 4.0.7 and
// Micrometer 1.16 on OpenJDK 17 on a 2-CPU host, each request burning CPU.

// jvmPinned is a JVM pinned to one of the host's 2 cores (taskset -c 1):
// system_cpu_count 1, process_cpu_usage the cores over both CPUs (0.485
// at 0.97 cores), system_cpu_usage the whole host's. It uses half its core
// until second from, then use of it (full: 0.97; half: 0.5).
func jvmPinned(use float64, from int) series.Set {
	return jvmScrape{cores: level(0.5, use, from), count: level(1, 1, 0), proc: level(0.25, use/2, from), sys: level(0.35, use/2+0.1, from)}.series()
}

// jvmQuota is a JVM in a cgroup whose quota is half a core: its
// system_cpu_count is 1 (the quota rounded up), and process_cpu_usage and
// system_cpu_usage are both its use over the quota (the cgroup's own
// share, not the host's): 0.5 cores read 1.0.
func jvmQuota(use float64) series.Set {
	return jvmScrape{cores: level(0.25, use, 10), count: level(1, 1, 0), proc: level(0.5, use/0.5, 10), sys: level(0.5, use/0.5, 10)}.series()
}

// jvmHogged is a JVM whose CPUs other processes fill from second from
// (a hog on its cpuset's core): its CPUs 100 % busy, the JVM itself 45 %
// of them, 0.45 of the 1 core it may use.
func jvmHogged(from int) series.Set {
	return jvmScrape{cores: level(0.3, 0.45, from), count: level(1, 1, 0), proc: level(0.3, 0.45, from), sys: level(0.32, 1, from)}.series()
}

// jvmPinnedBesideBusy is a JVM pinned with taskset to one of two cores,
// using 0.85 of it from second 10 while other processes fill the other
// core: system_cpu_usage (the whole host) reads 0.95, process_cpu_usage
// 0.425, yet nothing took the JVM's own core.
func jvmPinnedBesideBusy() series.Set {
	return jvmScrape{cores: level(0.5, 0.85, 10), count: level(1, 1, 0), proc: level(0.25, 0.425, 10), sys: level(0.4, 0.95, 10)}.series()
}

// jvmFlatOverload is a JVM pinned to one core and offered 130 req/s from
// the start, of which it serves 100: its core is full from the first
// scrape, and the open model's queue grows from there.
func jvmFlatOverload(t *testing.T) Input {
	secs := openQueue(40, func(int) int { return 130 }, 100, 9*time.Millisecond)
	return Input{Run: build(t, layout(modelArrivalRate, "GET /render"), secs), Series: jvmPinned(0.98, 0)}
}

// nodeHogged is a Go service (process_cpu_seconds_total, role app) on a
// 2-CPU host that node_exporter reads, with 0.5 cores of its own and the
// host 95 % busy from second from (other processes: 1.4 cores).
func nodeHogged(from int) series.Set {
	set := nodeCPUOf("app", 0.3, 0.95, from)
	set = append(set, mk("process_cpu_seconds_total", series.Rate, stepUp(0.5, 0), "role", "app", "target", "api"),
		mk("node_cpu_count", series.Gauge, pts(0, 5, repeat(2, 9)...), "role", "app", "target", "host"))
	return set
}

// nodeCPUOf is nodeCPU for a host of another role, labelled with its target.
func nodeCPUOf(role string, busy, busyAfter float64, from int) series.Set {
	set := nodeCPU(busy, busyAfter, from)
	for _, s := range set {
		ls := []string{"cpu", s.Label("cpu"), "mode", s.Label("mode"), "role", role, "target", "host"}
		*s = *mk(s.Name, s.Kind, s.Points, ls...)
	}
	return set
}

// nodeSelfBusy is the same host full with the service itself: 1.8 of its
// 2 CPUs, with no limit known, so the host is busy but not with others.
func nodeSelfBusy() series.Set {
	set := nodeCPUOf("app", 0.3, 0.95, 10)
	return append(set, mk("process_cpu_seconds_total", series.Rate, stepUp(1.8, 10), "role", "app", "target", "api"),
		mk("node_cpu_count", series.Gauge, pts(0, 5, repeat(2, 9)...), "role", "app", "target", "host"))
}

// closedWith is a closed-model run of 10 users at a steady 100 req/s of
// 100 ms for 40 s beside the series: no second of lower load to compare.
func closedWith(set series.Set) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		return Input{Run: build(t, layout(modelVUs, "GET /apps/{id}/render"), steady(40, 100, 10, 100*time.Millisecond)), Series: set}
	}
}

// jvmHoggedFromStartWithBurst is jvmHogged(0) as Micrometer reads a fresh
// JVM: system_cpu_usage 0 at its first scrape (no reading yet) and the
// JVM's first CPU rate a burst of 0.8 cores, so its own use hides the hog
// until second 2 although its CPUs were full from second 1.
func jvmHoggedFromStartWithBurst() series.Set {
	first := func(v, at1, after float64) func(int) float64 {
		return func(s int) float64 {
			switch s {
			case 0:
				return v
			case 1:
				return at1
			}
			return after
		}
	}
	return jvmScrape{cores: first(0.45, 0.8, 0.45), count: level(1, 1, 0), proc: first(0, 0.8, 0.45), sys: first(0, 1, 1)}.series()
}

// slowStart is withSeries whose requests take 60 ms in the first 2
// seconds, then 30 ms: a client slower at its start than after, as a
// fresh JVM's is.
func slowStart(set series.Set) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(40, 100, 3, 30*time.Millisecond)
		for i := range 2 {
			secs[i].reqs[0].dur = even(60*time.Millisecond, 0.5)
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /apps/first-page"), secs), Series: set}
	}
}

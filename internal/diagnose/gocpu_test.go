package diagnose

import (
	"slices"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestGoCPUAgainstGOMAXPROCS judges a Go service's CPU as the go preset
// keeps it (process_cpu_seconds_total, and go_sched_gomaxprocs_threads,
// which client_golang 1.20+ exposes by default: testdata of internal/scrape
// has a real exposition) against the cores it may use. Without GOMAXPROCS
// (the preset before it kept the gauge) neither CPU rule could judge it.
func TestGoCPUAgainstGOMAXPROCS(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		kind string
		want *expect // nil: the run must not raise kind
	}{
		{"pinned to one core (GOMAXPROCS 1), full from 0:10", slowFrom(goService(0.97, 1, 10), 10), KindCPUSaturation,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39},
				[]string{"App CPU saturated: 97% of 1 core (process_cpu_seconds_total, role=app, target=app) from 0:10"},
				[]string{"it used 0.97 cores of the 1 core it may use"}}},
		{"the scrapes read more than its one core: capped at 100%", slowFrom(goService(1.14, 1, 10), 10), KindCPUSaturation,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39},
				[]string{"App CPU saturated: 100% of 1 core (process_cpu_seconds_total, role=app, target=app) from 0:10"},
				[]string{"it used 1.14 cores of the 1 core it may use", "the scrapes read up to 114% of its limit, more than a process can use"}}},
		{"the same without GOMAXPROCS: nothing to judge it against", slowFrom(lessSeries(goService(0.97, 1, 10), goMaxProcs), 10), KindCPUSaturation, nil},
		{"GOMAXPROCS 2 (two cores, or a quota of up to 2 from Go 1.25): 0.97 cores is half", slowFrom(goService(0.97, 2, 10), 10), KindCPUSaturation, nil},
		{"GOMAXPROCS 2, both full", slowFrom(goService(1.95, 2, 10), 10), KindCPUSaturation,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39}, []string{"App CPU saturated: 97.5% of 2 cores (process_cpu_seconds_total, role=app, target=app) from 0:10"}, nil}},
		{"pinned, hogs on its core from 0:10: read on its core", slowFrom(goHogged(), 10), KindTargetHostBusy,
			&expect{Critical, [2]int{10, 10}, [2]int{39, 39},
				[]string{"App CPU taken by other processes from 0:10", "25% by itself (CPU 1, node_cpu_seconds_total, role=host, target=host)"},
				[]string{"the target itself: 0.25 cores of the 1 core it may run on (25%)"}}},
		{"pinned and hogged, without GOMAXPROCS: its core cannot be told", slowFrom(lessSeries(goHogged(), goMaxProcs), 10), KindTargetHostBusy, nil},
		{"hogged, GOMAXPROCS 2: not pinned to one core", slowFrom(goHoggedProcs(2), 10), KindTargetHostBusy, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), tc.kind, tc.want)
		})
	}
}

// goMaxProcs is client_golang's gauge of runtime.GOMAXPROCS.
const goMaxProcs = "go_sched_gomaxprocs_threads"

// goService is a Go service scraped with the go preset for 40 seconds:
// half a core until second from, then use cores, GOMAXPROCS procs.
func goService(use, procs float64, from int) series.Set {
	var cores []float64
	for s := range 40 {
		cores = append(cores, level(0.5, use, from)(s))
	}
	return series.Set{
		mk("process_cpu_seconds_total", series.Rate, pts(0, 1, cores...), "role", "app", "target", "app"),
		mk(goMaxProcs, series.Gauge, pts(0, 1, repeat(procs, 40)...), "role", "app", "target", "app"),
		mk("go_goroutines", series.Gauge, pts(0, 1, repeat(12, 40)...), "role", "app", "target", "app"),
	}
}

// goHogged is hoggedCore's host (node_exporter of 2 CPUs, hogs filling
// CPU 1 from 0:10) with a Go service pinned to CPU 1 (taskset -c 1, so
// GOMAXPROCS 1) in place of the JVM, 0.25 cores of it its own.
func goHogged() series.Set { return goHoggedProcs(1) }

// goHoggedProcs is goHogged with GOMAXPROCS procs.
func goHoggedProcs(procs float64) series.Set {
	var set series.Set
	for _, s := range hoggedCore(10, "1") {
		if s.Label("role") != "app" { // the JVM's series
			set = append(set, s)
		}
	}
	return append(set, goService(0.25, procs, 0)...)
}

// lessSeries returns set less the series of one name.
func lessSeries(set series.Set, name string) series.Set {
	return slices.DeleteFunc(slices.Clone(set), func(s *series.Series) bool { return s.Name == name })
}

package diagnose

import (
	"github.com/loadlens/loadlens/internal/series"
)

// pinnedHost is what the catalogue's host-busy layout scrapes each second
// for 40 seconds (bench/truth): node_exporter through the node preset (the
// modes summed over CPUs, and each CPU's idle and iowait) of a 2-CPU host
// labelled role host; a JVM whose system_cpu_count is 1; loadlens's own
// CPU; and whatever else the case adds.
type pinnedHost struct {
	cpu0, cpu1 func(sec int) float64 // each CPU's busy share
	jvm        func(sec int) float64 // the JVM's cores
	count      float64               // its system_cpu_count
	hostRole   string                // the node target's role label
	extra      series.Set
}

// series returns the scrapes' series.
func (p pinnedHost) series() series.Set {
	role := p.hostRole
	if role == "" {
		role = "host"
	}
	node := []string{"role", role, "target", "host"}
	var idle0, idle1, iow0, iow1, idle, iowait, user, gen []float64
	for s := range 40 {
		b0, b1 := p.cpu0(s), p.cpu1(s)
		idle0, idle1 = append(idle0, (1-b0)*0.9), append(idle1, (1-b1)*0.9)
		iow0, iow1 = append(iow0, (1-b0)*0.1), append(iow1, (1-b1)*0.1)
		idle, iowait = append(idle, (2-b0-b1)*0.9), append(iowait, (2-b0-b1)*0.1)
		user, gen = append(user, b0+b1), append(gen, 0.03)
	}
	perCPU := func(cpu, mode string, v []float64) *series.Series {
		return mk("node_cpu_seconds_total", series.Rate, pts(0, 1, v...), append([]string{"cpu", cpu, "mode", mode}, node...)...)
	}
	set := series.Set{
		mk("node_cpu_seconds_total", series.Rate, pts(0, 1, idle...), append([]string{"mode", "idle"}, node...)...),
		mk("node_cpu_seconds_total", series.Rate, pts(0, 1, iowait...), append([]string{"mode", "iowait"}, node...)...),
		mk("node_cpu_seconds_total", series.Rate, pts(0, 1, user...), append([]string{"mode", "user"}, node...)...),
		perCPU("0", "idle", idle0), perCPU("0", "iowait", iow0), perCPU("1", "idle", idle1), perCPU("1", "iowait", iow1),
		mk("node_cpu_count", series.Gauge, pts(0, 1, repeat(2, 40)...), node...),
		mk(GeneratorCPU, series.Gauge, pts(0, 1, gen...), "role", "generator", "target", "loadlens"),
	}
	count := p.count
	if count == 0 {
		count = 1
	}
	jvm := jvmScrape{cores: p.jvm, count: level(count, count, 0), proc: func(s int) float64 { return p.jvm(s) / 2 },
		sys: func(s int) float64 { return (p.cpu0(s) + p.cpu1(s)) / 2 }}
	return append(append(set, jvm.series()...), p.extra...)
}

// The host-busy case as measured (bench/truth, 2026-11-29): two hogs and
// the JVM on CPU 1, which reads 100 % busy; the JVM used 0.18–0.52 cores
// (0.25 typical); CPU 0 (loadlens, the exporters) 5–14 % busy.

// hoggedCore is that layout, the hogs on CPU 1 from second from, on CPU
// hogCPU ("0" swaps the two CPUs): the JVM's core full, 0.25 cores of it
// the JVM's, the other core 8 % busy.
func hoggedCore(from int, hogCPU string) series.Set {
	p := pinnedHost{cpu0: level(0.08, 0.08, 0), cpu1: level(0.35, 1, from), jvm: level(0.25, 0.25, 0)}
	if hogCPU == "0" {
		p.cpu0, p.cpu1 = p.cpu1, p.cpu0
	}
	return p.series()
}

// hogsBesideJVM is the generator-starved layout with a JVM as target: the
// hogs fill CPU 0 (loadlens's), the JVM uses 0.3 cores of CPU 1.
func hogsBesideJVM() series.Set {
	return pinnedHost{cpu0: level(1, 1, 0), cpu1: level(0.33, 0.33, 0), jvm: level(0.3, 0.3, 0)}.series()
}

// pinnedSilent are pinnedHost variants that must not be read as a
// neighbour taking the JVM's core, each with why.
func pinnedSilent() map[string]series.Set {
	full := func(v float64) func(int) float64 { return level(v, v, 0) }
	hogged := pinnedHost{cpu0: full(0.08), cpu1: full(1), jvm: full(0.25)}
	withExtra := func(p pinnedHost, extra ...*series.Series) series.Set { p.extra = extra; return p.series() }
	db := mk(containerCPU, series.Rate, pts(0, 1, repeat(0.7, 40)...), "container", "postgres", "namespace", "truth", "pod", "postgres-5d8f7c9b6-00001", "role", "db", "target", "cadvisor-postgres")
	quota := mk("container_cpu_cfs_periods_total", series.Rate, pts(0, 1, repeat(10, 40)...), "container", "app", "namespace", "truth", "pod", "truthapp-5d8f7c9b6-00004", "role", "app", "target", "cadvisor-truthapp")
	pgUp := mk("pg_up", series.Gauge, pts(0, 1, repeat(1, 40)...), "role", "db", "target", "postgres")
	return map[string]series.Set{
		"the JVM's own work fills its core":                    pinnedHost{cpu0: full(0.08), cpu1: full(1), jvm: full(0.95)}.series(),
		"the DB beside it fills its core":                      withExtra(hogged, db),
		"a quota, not a core of its own: it may run on either": withExtra(hogged, quota),
		"it may run on both CPUs (system_cpu_count 2)":         pinnedHost{cpu0: full(0.08), cpu1: full(1), jvm: full(0.25), count: 2}.series(),
		"node_exporter of the DB's host, not the app's":        withExtra(pinnedHost{cpu0: full(0.08), cpu1: full(1), jvm: full(0.25), hostRole: "db"}, pgUp),
		"a quiet host": pinnedHost{cpu0: full(0.1), cpu1: full(0.4), jvm: full(0.3)}.series(),
		"the JVM barely ran: either CPU could be its":             pinnedHost{cpu0: full(0.005), cpu1: full(1), jvm: full(0.03)}.series(),
		"the other core as busy as the JVM: cannot tell its core": pinnedHost{cpu0: full(0.2), cpu1: full(1), jvm: full(0.25)}.series(),
		"hogs on the generator's core, the JVM alone on its own":  hogsBesideJVM(),
	}
}

// measuredHostBusy is the catalogue's host-busy run 3 on a quiet host
// (2026-11-29 17:07, other processes 0.04 cores): the JVM's cores and the
// host's idle + iowait (CPU-seconds per second, over both CPUs) as
// recorded, each second. That run's node preset summed over CPUs; two
// busy loops pinned to CPU 1 leave it no idle time, so each CPU's share is
// CPU 1 full and CPU 0 the host's idle time short of 1.
func measuredHostBusy() series.Set {
	idle := []float64{0.949, 0.935, 0.925, 0.938, 0.918, 0.924, 0.909, 0.933, 0.921, 0.948, 0.9, 0.901, 0.938, 0.863, 0.917,
		0.935, 0.876, 0.943, 0.917, 0.924, 0.935, 0.961, 0.92, 0.946, 0.926, 0.924, 0.935, 0.948, 0.918, 0.944}
	jvm := []float64{0.517, 0.517, 0.34, 0.422, 0.358, 0.271, 0.297, 0.245, 0.332, 0.509, 0.471, 0.227, 0.193, 0.244, 0.197,
		0.283, 0.264, 0.365, 0.431, 0.29, 0.3, 0.249, 0.303, 0.179, 0.193, 0.205, 0.226, 0.195, 0.193, 0.189} // its first rate (0:01) also at 0:00
	at := func(xs []float64) func(int) float64 {
		return func(s int) float64 { return xs[min(s, len(xs)-1)] }
	}
	return pinnedHost{cpu0: func(s int) float64 { return 1 - at(idle)(s) }, cpu1: level(1, 1, 0), jvm: at(jvm)}.series()
}

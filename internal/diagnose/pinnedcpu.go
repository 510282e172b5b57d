package diagnose

import (
	"math"
	"sort"

	"github.com/loadlens/loadlens/internal/series"
)

// minPlaced is the least a pinned target must use, in cores, for its one
// CPU to be told from the host's others by their busy time: below it every
// CPU is busier than the target and none can be named its own.
const minPlaced = 0.05

// restShare is how much less busy than the target's own use each CPU not
// its own must be: the target's and node_exporter's scrapes measure
// slightly different windows, so a CPU the target ran on can read a little
// below its use, never half.
const restShare = 0.5

// hostKey names the host of a node_cpu_seconds_total series: its labels
// but cpu and mode.
func hostKey(s *series.Series) string {
	return (&series.Series{Name: s.Name, Labels: without(s.Labels, []string{"cpu", "mode"})}).Key()
}

// summedHosts returns the hosts whose CPU time the node preset summed over
// CPUs (series without a cpu label): their per-CPU series are kept beside
// the sums, not instead of them.
func summedHosts(set series.Set) map[string]bool {
	out := map[string]bool{}
	for _, s := range set.Find("node_cpu_seconds_total") {
		if s.Label("cpu") == "" {
			out[hostKey(s)] = true
		}
	}
	return out
}

// oneCPU is one CPU of a node_exporter host and the source of its busy share.
type oneCPU struct {
	cpu    string // its cpu label
	source string // cpu_busy(KEY)
	label  string // for a title: "CPU 1, node_cpu_seconds_total, role=host, target=host"
}

// nodeHost is a node_exporter host whose CPUs are read one by one.
type nodeHost struct {
	first *series.Series // one of its per-CPU series, for its labels
	cpus  []oneCPU
}

// perCPUHosts returns every node_exporter host with per-CPU idle time, its
// CPUs in the order of their number.
func (c *context) perCPUHosts() []nodeHost {
	var hosts []nodeHost
	seen := map[string]int{}
	cpus := map[string]map[string]bool{}
	for _, s := range c.set.Find("node_cpu_seconds_total") {
		if s.Label("cpu") == "" || s.Label("mode") != "idle" {
			continue
		}
		k := hostKey(s)
		i, ok := seen[k]
		if !ok {
			i = len(hosts)
			seen[k] = i
			hosts = append(hosts, nodeHost{first: s})
			cpus[k] = map[string]bool{}
		}
		if cpus[k][s.Label("cpu")] {
			continue
		}
		cpus[k][s.Label("cpu")] = true
		key := series.Series{Name: s.Name, Labels: without(s.Labels, []string{"mode"})}
		hosts[i].cpus = append(hosts[i].cpus, oneCPU{cpu: s.Label("cpu"), source: c.cpuBusySource(&key),
			label: "CPU " + s.Label("cpu") + ", " + titled(&series.Series{Name: s.Name, Labels: without(s.Labels, []string{"cpu", "mode"})})})
	}
	for i := range hosts {
		sort.Slice(hosts[i].cpus, func(a, b int) bool { return cpuLess(hosts[i].cpus[a].cpu, hosts[i].cpus[b].cpu) })
	}
	return hosts
}

// cpuLess orders CPU numbers as numbers ("2" before "10").
func cpuLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// cpuBusySource defines the source of one CPU's busy share,
// cpu_busy(KEY), KEY being the CPU's node_cpu_seconds_total key without
// its mode: 1 − (idle + iowait) / all its modes, each second both idle and
// all have a value; all is 1 CPU-second per second when only idle and
// iowait are kept (the node preset). Within 0..1: a tick of counter jitter
// is not a CPU more or less.
func (c *context) cpuBusySource(cpu *series.Series) string {
	src := "cpu_busy(" + cpu.Key() + ")"
	if _, ok := c.vals[src]; ok {
		return src
	}
	idle, all := map[int]float64{}, map[int]float64{}
	others := false
	for _, s := range c.set.Find(cpu.Name) {
		if !sameLabels(s.Labels, cpu.Labels, []string{"mode"}) || s.Label("mode") == "" {
			continue
		}
		mode := s.Label("mode")
		for _, p := range perSecond(s) {
			all[p.Sec] += p.Value
			if mode == "idle" || mode == "iowait" {
				idle[p.Sec] += p.Value
			}
		}
		others = others || (mode != "idle" && mode != "iowait")
	}
	var pts []series.Point
	for sec, v := range idle {
		total := 1.0
		if others {
			total = all[sec]
		}
		if total > 0 {
			pts = append(pts, series.Point{Sec: sec, Value: min(1, max(0, 1-v/total))})
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
	return c.define(src, pts)
}

// pinnedViews returns a view of each CPU of each node_exporter host for
// each process confined to one CPU of it (pinnedProcs): a target pinned
// to one core (taskset, a cpuset) starved by a neighbour there shows only
// as that core full, the host's other CPUs idle. Which core is its own
// the busy times say: at each scrape its own use fits on none of the
// other CPUs that are not full (placed).
func (c *context) pinnedViews() []targetCPUs {
	var out []targetCPUs
	for _, h := range c.perCPUHosts() {
		if len(h.cpus) < 2 {
			continue
		}
		for _, p := range c.pinnedProcs() {
			if !c.hostOf(h, p.s) {
				continue
			}
			count := c.latestAt(p.count, p.cores)
			own, _ := c.ratio(p.cores, count)
			near := c.neighbours(p.s)
			for i, cpu := range h.cpus {
				rest := append(append([]oneCPU(nil), h.cpus[:i]...), h.cpus[i+1:]...)
				out = append(out, targetCPUs{name: roleName(p.s), proc: procOf(p.s), label: cpu.label, busy: cpu.source, own: own,
					ownCores: p.cores, cpus: count, cpusWhat: "the CPU it may run on (" + titled(p.countOf) + ")",
					also: c.placed(cpu, rest, p.cores, near), rest: rest})
			}
		}
	}
	return out
}

// placed returns whether, at a second, the target ran on cpu and other
// processes there took at least hostOthers of it: it used at least
// minPlaced cores and every other CPU was busy less than restShare of
// that, so could not have held it. A host full everywhere does not say
// which CPU was the target's: the views of all its CPUs tell that.
// Other processes whose CPU is known (near: loadlens, other scraped
// processes and containers) count as the target's neighbours only where
// they cannot have been: on a CPU of their own, or beside the target,
// whichever is the less taken, as if on the target's CPU.
func (c *context) placed(cpu oneCPU, rest []oneCPU, cores string, near []string) func(sec int) bool {
	return func(sec int) bool {
		used, ok := valueAtSorted(c.values(cores), sec)
		if !ok || used < minPlaced {
			return false
		}
		var known float64
		for _, n := range near {
			if v, ok := valueAtSorted(c.values(n), sec); ok {
				known += v
			}
		}
		if b, ok := valueAtSorted(c.values(cpu.source), sec); !ok || b < cpuBusy || b-used-known < hostOthers {
			return false
		}
		for _, o := range rest {
			if b, ok := valueAtSorted(c.values(o.source), sec); !ok || b >= used*restShare {
				return false
			}
		}
		return true
	}
}

// pinnedProc is a process confined to one CPU by its affinity.
type pinnedProc struct {
	s       *series.Series // its CPU time
	cores   string         // the source of the cores it used
	count   string         // the source of the CPUs it may run on
	countOf *series.Series // that series, for a title
}

// pinnedProcs returns the processes that may run on 1 CPU
// (system_cpu_count, GOMAXPROCS) with no CPU quota known: a quota is not
// a CPU of their own (the JVM rounds a quota of half a core up to 1
// processor, and runs on every CPU of the host).
func (c *context) pinnedProcs() []pinnedProc {
	var out []pinnedProc
	for _, p := range c.processCores() {
		if procOf(p.s) == "" || c.quotaKnown(p.s) {
			continue
		}
		count := c.affinityOf(p.s)
		if count == nil {
			continue
		}
		pts := c.values(c.ofSeries(count))
		one := len(pts) > 0
		for _, q := range pts {
			one = one && q.Value == 1
		}
		if one {
			out = append(out, pinnedProc{s: p.s, cores: c.freshestCores(p), count: c.ofSeries(count), countOf: count})
		}
	}
	return out
}

// affinityOf returns the series of the same scrape that says how many CPUs
// a process may run on: Go's GOMAXPROCS or the JVM's availableProcessors.
func (c *context) affinityOf(s *series.Series) *series.Series {
	n, v := scrapeOf(s)
	for _, gauge := range []string{"go_sched_gomaxprocs_threads", "system_cpu_count"} {
		for _, o := range c.set.Find(gauge) {
			if n != "" && o.Label(n) == v {
				return o
			}
		}
	}
	return nil
}

// quotaKnown reports whether a process has a CPU quota: a cpu_limit label
// or gauge of its scrape, or a container of its role with CFS periods
// (cAdvisor counts them only under a quota) or a Kubernetes CPU limit.
func (c *context) quotaKnown(s *series.Series) bool {
	if s.Label(CPULimit) != "" {
		return true
	}
	n, v := scrapeOf(s)
	for _, o := range c.set.Find(CPULimit) {
		if o.Label(n) == v {
			return true
		}
	}
	role := s.Label("role")
	for _, o := range c.set.Find("container_cpu_cfs_periods_total") {
		if role != "" && o.Label("role") == role {
			return true
		}
	}
	for _, o := range c.set.Find(containerCPU) {
		if role != "" && o.Label("role") == role && c.kubeLimit(o, "cpu") != nil {
			return true
		}
	}
	return false
}

// hostOf reports whether a node_exporter host is a process's: both of one
// role, or the host's role (or its lack of one) is no other scrape's, a
// host of no one tier, as the one host of a loopback test is.
func (c *context) hostOf(h nodeHost, s *series.Series) bool {
	role := h.first.Label("role")
	if role != "" && role == s.Label("role") {
		return true
	}
	for _, o := range c.set {
		if o.Label("role") == role && o.Label("target") != h.first.Label("target") {
			return false
		}
	}
	return true
}

// neighbours returns the sources, in cores, of every other process whose
// CPU is known: loadlens itself, other scraped processes, and the
// containers of other roles.
func (c *context) neighbours(s *series.Series) []string {
	var out []string
	for _, g := range c.set.Find(GeneratorCPU) {
		out = append(out, c.ofSeries(g))
	}
	for _, p := range c.processCores() {
		if procOf(p.s) != procOf(s) {
			out = append(out, p.cores)
		}
	}
	for _, o := range c.set.Find(containerCPU) {
		if o.Label("role") != s.Label("role") {
			out = append(out, c.ofSeries(o))
		}
	}
	return out
}

// restEvidence states the busiest of the host's other CPUs meanwhile: it
// was too idle to be where the target ran.
func (c *context) restEvidence(b *builder, rest []oneCPU, own ref, from, to int) {
	var best Figure
	for _, o := range rest {
		f := c.fig(o.source, StatMedian, from, to, UnitFraction, "the busiest other CPU's busy share, CPU "+o.cpu+" (median)")
		if best.Source == "" || f.Value > best.Value {
			best = f
		}
	}
	if best.Source == "" || math.IsNaN(best.Value) {
		return
	}
	r := b.add(best)
	b.evidence(r, "the host's other CPUs: at most ", r, " busy (median), well below the target's own ", own, ": it ran on this one")
}

// valueAtSorted is valueAt for points in second order, by binary search:
// the per-CPU view looks every CPU and neighbour up at every scrape of
// every CPU, which a linear scan makes quadratic in a long run's length.
func valueAtSorted(points []series.Point, sec int) (float64, bool) {
	i := sort.Search(len(points), func(i int) bool { return points[i].Sec > sec }) - 1
	if i < 0 {
		return 0, false
	}
	return points[i].Value, sec-points[i].Sec <= maxPointAge
}

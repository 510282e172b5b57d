package diagnose

import "math"

// cacheOwnLow is the most of its one core Redis may use for its host's
// full CPU to be other processes': its commands run on one main thread,
// and near a core it is its own ceiling (cache-cpu), as a target near
// its limit is its own saturation (targetHostBusy).
const cacheOwnLow = 1 - hostOthers

// cacheHost is a Redis whose CPU its exporter reports beside the
// node_exporter host of the same role.
type cacheHost struct {
	host   cpuSubject // the host's busy share (hostCPU)
	count  string     // the source of the host's CPUs (node_cpu_count)
	cores  string     // the source of the cores the whole Redis process used
	own    string     // cores over the host's CPUs: Redis's share of them
	label  string     // Redis's CPU series, for the evidence
	target string
}

// cacheHostBusy is target-host-busy for a cache whose process CPU only its
// exporter reports (redis_exporter's redis_cpu_*_seconds_total): the host
// of its role full (cpuBusy) for several scrapes, other processes at least
// hostOthers of its CPUs, Redis at most cacheOwnLow of its one core. Trial
// A3's Redis, its core shared with three CPU hogs, got 0.07 cores at
// 1,500 req/s, p95 4.95 ms against a p50 of 258 µs, and the run read "no
// bottleneck found" beside "cache CPU busy … context".
func cacheHostBusy(c *context) []Finding {
	var fs []Finding
	for _, d := range c.cacheHosts() {
		pts, own := d.host.points, c.values(d.own)
		taken := func(i int) bool {
			sec := pts[i].Sec
			cores, ok := valueAt(c.values(d.cores), sec)
			share, ok2 := valueAt(own, sec)
			return ok && ok2 && pts[i].Value >= cpuBusy && cores <= cacheOwnLow && pts[i].Value-share >= hostOthers
		}
		run, ok := sustained(pts, taken)
		if !ok {
			continue
		}
		if f, ok := c.cacheHostFinding(d, pts[run.first].Sec, pts[lastHolding(pts, run.first, taken)].Sec); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// cacheHosts pairs each node_exporter host of a role with the Redis
// targets of that role whose process CPU is kept, as nodeViews pairs a
// host with its role's processes.
func (c *context) cacheHosts() []cacheHost {
	var out []cacheHost
	for _, h := range c.hostCPU() {
		role, count := c.nodeCount(h.host)
		if role == "" || count == "" {
			continue
		}
		for _, t := range c.cacheTargets() {
			src, label := c.redisPairSource(t, redisProcessCPU)
			if src == "" || !c.targetOfRole(t, role) {
				continue
			}
			own, _ := c.ratioLatest(src, count)
			out = append(out, cacheHost{host: h, count: count, cores: src, own: own, label: label, target: t})
		}
	}
	return out
}

// targetOfRole reports whether a scraped target's series carry role.
func (c *context) targetOfRole(target, role string) bool {
	for _, s := range c.set {
		if s.Label("target") == target && s.Label("role") == role {
			return true
		}
	}
	return false
}

// cacheHostFinding states a Redis's host CPU taken by other processes
// between two seconds, graded as target-host-busy is (hostTakenFinding):
// critical when the load felt it, a warning when no second before was
// quiet, else context. A second is quiet only when none of the host's
// CPUs was full: Redis confined to a full one (taskset) waits for it
// while the host's total reads below full.
func (c *context) cacheHostFinding(d cacheHost, from, to int) (Finding, bool) {
	b := newBuilder(KindTargetHostBusy, Critical)
	onset := b.second(from, StatOnset, "the first scrape at which other processes held the cache's host")
	busy := b.add(c.fig(d.host.source, StatMedian, from, to, UnitFraction, "the cache host's CPUs in use, every process counted (median)"))
	oc := b.add(c.fig(d.cores, StatMedian, from, to, UnitCores, "cores Redis used (median)"))
	n := b.add(c.fig(d.count, StatMedian, from, to, UnitCores, "the host's CPUs"))
	own := b.derive(StatRatio, UnitFraction, "Redis's share of the host's CPUs", oc, n)
	core := b.add(Figure{Value: 1, Unit: UnitCores, What: "the one core Redis's main thread runs its commands on", Stat: StatLimit, From: from, To: to})
	ofCore := b.derive(StatRatio, UnitFraction, "Redis's cores over its one core", oc, core)
	if math.IsNaN(b.fig(busy).Value) || math.IsNaN(b.fig(own).Value) {
		return Finding{}, false
	}
	others := b.derive(StatDiff, UnitFraction, "the share of the host's CPUs other processes used", busy, own)
	full, fullFrom := c.cpuFullBefore(d, from)
	effect, base, near := false, ref(-1), ref(-1)
	if full == nil && c.quietBefore(d.host.source, from) {
		effect, base, near = c.loadEffect(b, from, to)
	}
	var queued func()
	if !effect && base < 0 {
		effect, queued = c.spellQueued(b, d.host.source, from, to)
	}
	title := []any{name(d.host.name), " host CPU taken by other processes from ", onset, ": its CPUs ", busy, " busy, ", others,
		" by other processes; Redis itself used ", ofCore, " of a core"}
	switch {
	case effect:
		title = append(title, ": its commands waited for a CPU (", name(d.host.label), ")")
	case base < 0:
		b.f.Severity = Warning
		title = append(title, ": its commands waited for a CPU (", name(d.host.label), ")")
		if full != nil {
			title = append(title, ", with one of its CPUs full from the run's start: no quiet second to compare this load with")
		} else {
			title = append(title, ", from the run's start: no quiet second to compare this load with")
		}
	default:
		b.f.Severity = Info
		title = append(title, " (", name(d.host.label), "), but the client's latency did not rise with it: context, not what limited this load")
	}
	b.title(title...)
	b.evidence(busy, "the host's CPUs: ", busy, " in use, every process counted, from ", onset, " (median)")
	b.evidence(own, "Redis itself (", name(d.label), "): ", oc, " of the host's ", n, " (", own, "); other processes: ", others,
		"; its commands run on one thread, which used ", ofCore, " of its core")
	if full != nil {
		med := b.add(c.fig(full.source, StatMedian, fullFrom, to, UnitFraction, "the full CPU's busy share from its first scrape (median)"))
		b.evidence(med, name("CPU "+full.cpu), " of the host: full at every scrape from ", b.second(fullFrom, StatSecond, "the CPU's first scrape"),
			" (", med, " busy, median): other processes held it before the onset too")
	}
	c.clientTail(b)
	c.clientAt(b, from)
	if queued != nil {
		queued()
	}
	if base >= 0 {
		b.evidence(near, "the client's mean latency: ", base, " before ", onset, ", ", near, " just after (medians)")
	}
	b.f.Remedies = append([]string(nil), cacheHostRemedies...)
	return b.done(from, to), true
}

// cpuFullBefore returns the first of the host's CPUs full (cpuBusy) at
// every one of its scrapes before from, at least cpuEffectBase of them, and
// its first scrape; nil when none was, or the host's CPUs are not kept one
// by one.
func (c *context) cpuFullBefore(d cacheHost, from int) (*oneCPU, int) {
	for _, h := range c.perCPUHosts() {
		if !sameLabels(h.first.Labels, d.host.host, []string{"cpu", "mode"}) {
			continue
		}
		for i := range h.cpus {
			n, first := 0, -1
			for _, p := range c.values(h.cpus[i].source) {
				if p.Sec >= from {
					break
				}
				if p.Value < cpuBusy {
					n = -1
					break
				}
				if first < 0 {
					first = p.Sec
				}
				n++
			}
			if n >= cpuEffectBase {
				return &h.cpus[i], first
			}
		}
	}
	return nil, 0
}

// clientTail states the run's p95 beside its p50: requests that met a
// command waiting for a CPU make a long tail over a fast median.
func (c *context) clientTail(b *builder) {
	if c.run == nil || len(c.run.Series) == 0 {
		return
	}
	p95 := b.add(c.quantile(95, UnitDuration, "the run's p95 latency"))
	p50 := b.add(c.quantile(50, UnitDuration, "the run's median latency"))
	if math.IsNaN(b.fig(p95).Value) || !(b.fig(p50).Value > 0) {
		return
	}
	x := b.derive(StatRatio, UnitRatio, "the run's p95 over its median", p95, p50)
	b.evidence(x, "the client over the run: ", name("p95"), " ", p95, " against a ", name("p50"), " of ", p50, " (", x, "): a long tail over a fast median")
}

// cacheHostRemedies are a starved cache's remedies, cheapest first.
var cacheHostRemedies = []string{
	"find what else ran on the cache's host (top or pidstat on it, by process): a batch job, a backup, another service, a second test",
	"give Redis a core of its own (taskset -c or a cpuset for Redis, other CPUs for the rest; a dedicated node or instance) and re-run",
	"read this run's latency as the service's with a cache on a shared host, not as its capacity",
}

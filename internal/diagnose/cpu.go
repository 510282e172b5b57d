package diagnose

import (
	"sort"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// cpuBusy is the CPU threshold. 90 % busy, sustained, is where queueing
// for the CPU starts to dominate response times (case study 1's DB at 78 %
// was slow because of its queries, but was not yet out of CPU; at 90 % it
// was the bottleneck again).
const cpuBusy = 0.9

// cpuSubject is one process, host or container and its CPU use as the
// fraction of what it may use, one value per scrape.
type cpuSubject struct {
	name   string         // "DB", "App", ...
	proc   string         // the process, by its scrape (procOf); "" for a host or a workload
	source string         // the source the fractions come from
	label  string         // the series for a title: "node_cpu_seconds_total, role=db"
	what   string         // how the fraction reads: "busy", "of its limit", "of CFS periods throttled"
	cores  string         // the source of the cores used, when the fraction is cores over a limit
	limit  string         // the source of the limit, when there is one
	raw    string         // cores over the limit before capped: may read above 1
	host   []series.Label // a node_exporter host's labels (those of its node_cpu_count)
	points []series.Point
	thresh float64
}

// cpuSaturation finds processes, hosts and containers whose CPU was used
// up for several scrapes in a row.
func cpuSaturation(c *context) []Finding {
	var fs []Finding
	found := map[string]bool{} // the processes already found saturated
	for _, s := range c.cpuSubjects() {
		busy := func(i int) bool { return s.points[i].Value >= s.thresh }
		run, ok := sustained(s.points, busy)
		if !ok || (s.proc != "" && found[s.proc]) {
			continue
		}
		found[s.proc] = s.proc != ""
		last := lastHolding(s.points, run.first, busy)
		fs = append(fs, c.cpuFinding(s, s.points[run.first].Sec, s.points[last].Sec))
	}
	return fs
}

// ratio defines the source a / b: a's value over b's at the seconds both
// have one.
func (c *context) ratio(a, b string) (string, []series.Point) {
	return c.combine(a, " / ", b, func(x, y float64) (float64, bool) { return x / y, y > 0 })
}

// combine defines the source a op b: op of a's value and b's at the
// seconds both have one, where op says the result is defined.
func (c *context) combine(a, op, b string, f func(x, y float64) (float64, bool)) (string, []series.Point) {
	src := a + op + b
	if pts, ok := c.vals[src]; ok {
		return src, pts
	}
	bv := map[int]float64{}
	for _, p := range c.values(b) {
		bv[p.Sec] = p.Value
	}
	var pts []series.Point
	for _, p := range c.values(a) {
		if y, ok := bv[p.Sec]; ok {
			if v, ok := f(p.Value, y); ok {
				pts = append(pts, series.Point{Sec: p.Sec, Value: v})
			}
		}
	}
	c.define(src, pts)
	return src, pts
}

// constant defines the source of a label's number, constant over the run:
// label(NAME, KEY), with a value at every second the series has one.
func (c *context) constant(label string, s *series.Series, v float64) string {
	src := "label(" + label + ", " + s.Key() + ")"
	if _, ok := c.vals[src]; !ok {
		var pts []series.Point
		for _, p := range s.Points {
			pts = append(pts, series.Point{Sec: p.Sec, Value: v})
		}
		c.define(src, pts)
	}
	return src
}

// cpuSubjects reads every CPU figure the series offer. A JVM's cores over
// the processors it may use come before its process_cpu_usage: the first
// of a process's subjects to be saturated is its finding.
func (c *context) cpuSubjects() []cpuSubject {
	out := c.jvmCPU()
	for _, s := range c.set.Find("process_cpu_usage") {
		src := c.ofSeries(s)
		out = append(out, cpuSubject{name: roleName(s), proc: procOf(s), source: src, label: titled(s), what: "of its CPUs busy", points: c.values(src), thresh: cpuBusy})
	}
	for _, n := range []string{"process_cpu_seconds_total", "container_cpu_usage_seconds_total"} {
		for _, s := range c.set.Find(n) {
			limit := c.cpuLimitSource(s)
			if limit == "" {
				continue // a pod of a workload without a limit of its own: counted with the others below
			}
			if sub, ok := c.limitSubject(s, c.ofSeries(s), limit); ok {
				out = append(out, sub)
			}
		}
	}
	out = append(out, c.podsCPU()...)
	return append(out, c.hostCPU()...)
}

// jvmCPU reads Micrometer's process CPU time as cores over the processors
// the JVM may use. Its process_cpu_usage is a share of every CPU of the
// host unless the JVM is in a cgroup with a quota or a cpuset, so a JVM
// pinned to one of two cores (taskset) reads at most 50 % there; its
// system_cpu_count (Runtime.availableProcessors) follows the pinning and a
// quota rounded up (docs/findings.md has the measurements).
func (c *context) jvmCPU() []cpuSubject {
	var out []cpuSubject
	for _, s := range c.set.Find(jvmCPUTime) {
		if limit := c.cpuLimitSource(s); limit != "" {
			if sub, ok := c.limitSubject(s, c.nsCores(s), limit); ok {
				out = append(out, sub)
			}
		}
	}
	return out
}

// limitSubject is a process's CPU as its cores (the source used) over the
// cores it may use (limit).
func (c *context) limitSubject(s *series.Series, used, limit string) (cpuSubject, bool) {
	raw, _ := c.ratio(used, limit)
	src, pts := c.capped(raw)
	return cpuSubject{name: roleName(s), proc: procOf(s), source: src, label: titled(s), what: "of its CPU limit",
		cores: used, limit: limit, raw: raw, points: pts, thresh: cpuBusy}, len(pts) > 0
}

// capped defines the source capped(SRC): SRC's values, none above 1. A
// process uses at most the cores it may use; its CPU-time rate over scrapes
// whose intervals jitter can read more (1.14 of 1 core), which is no more use.
func (c *context) capped(src string) (string, []series.Point) {
	out := "capped(" + src + ")"
	if pts, ok := c.vals[out]; ok {
		return out, pts
	}
	var pts []series.Point
	for _, p := range c.values(src) {
		pts = append(pts, series.Point{Sec: p.Sec, Value: min(p.Value, 1)})
	}
	c.define(out, pts)
	return out, pts
}

// jvmCPUTime is Micrometer's process CPU time, a counter of nanoseconds.
const jvmCPUTime = "process_cpu_time_ns_total"

// nsCores defines the source of a CPU-time counter in nanoseconds as the
// cores it used: cores(KEY), its rate over 10⁹.
func (c *context) nsCores(s *series.Series) string {
	src := "cores(" + s.Key() + ")"
	if _, ok := c.vals[src]; !ok {
		var pts []series.Point
		for _, p := range c.values(c.ofSeries(s)) {
			pts = append(pts, series.Point{Sec: p.Sec, Value: p.Value / 1e9})
		}
		c.define(src, pts)
	}
	return src
}

// procOf names the process a series describes, by its scrape: "" when the
// series has no target or role label to tell processes apart.
func procOf(s *series.Series) string {
	n, v := scrapeOf(s)
	if n == "" {
		return ""
	}
	return n + "=" + v
}

// podsCPU reads the CPU of each workload's containers against their
// limits: cAdvisor's use summed over the pods, over kube-state-metrics'
// limits summed over the pods, which it scrapes at seconds of its own.
func (c *context) podsCPU() []cpuSubject {
	var out []cpuSubject
	for _, g := range c.podGroups(containerCPU) {
		if c.kubeLimit(g.first, "cpu") == nil {
			continue
		}
		cpu := c.groupCPU(g)
		if cpu.used == "" {
			continue
		}
		raw, _ := c.ratioLatest(cpu.used, cpu.limit)
		src, pts := c.capped(raw)
		if len(pts) > 0 {
			out = append(out, cpuSubject{name: g.workload, source: src, label: containerCPU + ", " + g.describe(), what: "of its CPU limits",
				cores: cpu.used, limit: cpu.limit, raw: raw, points: pts, thresh: cpuBusy})
		}
	}
	return out
}

// cpuLimitSource returns the source of the cores a process may use: its
// cpu_limit label, else a cpu_limit gauge of the same scrape, else the
// fewer of its cgroup's quota as loadlens read it (CgroupQuota) and the
// threads it may run (threadLimit); "" when none is known.
func (c *context) cpuLimitSource(s *series.Series) string {
	if v := s.Label(CPULimit); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
			return c.constant(CPULimit, s, f)
		}
	}
	if g := c.sameScrape(s, CPULimit); g != "" {
		return g
	}
	quota, threads := c.sameScrape(s, CgroupQuota), c.threadLimit(s)
	if quota == "" || threads == "" {
		return quota + threads
	}
	src, _ := c.combine(quota, " min ", threads, func(x, y float64) (float64, bool) { return min(x, y), true })
	return src
}

// threadLimit returns the source of the threads a process may run at once
// as its own scrape exposes them: Go's GOMAXPROCS or Micrometer's
// system_cpu_count (the JVM's availableProcessors), or one core for a
// Node.js process (eventLoopCore); "" when none.
func (c *context) threadLimit(s *series.Series) string {
	for _, gauge := range []string{"go_sched_gomaxprocs_threads", "system_cpu_count"} {
		if g := c.sameScrape(s, gauge); g != "" {
			return g
		}
	}
	return c.eventLoopCore(s)
}

// eventLoopMost is the most cores one Node.js process is read at before
// its CPU is more than its event loop's (GC and libuv's threads add a little).
const eventLoopMost = 1.2

// eventLoopCore returns the source one(KEY), one core at each point of s,
// when s is a process's CPU time and its scrape is a Node.js process's
// (prom-client's nodejs_ series beside it): its JavaScript runs on one
// thread, so its event loop is full at one core whatever its host has.
// Trial A5's Node service, flat at 0.98–0.99 cores for 35 s while its
// throughput plateaued at 244 req/s, got no CPU finding without a
// cpu_limit label. "" otherwise, and when s ever read above eventLoopMost.
func (c *context) eventLoopCore(s *series.Series) string {
	if s.Name != "process_cpu_seconds_total" {
		return ""
	}
	for _, p := range s.Points {
		if p.Value > eventLoopMost { // worker threads, or prom-client's cluster sum: more than one event loop
			return ""
		}
	}
	n, v := scrapeOf(s)
	if n == "" {
		return ""
	}
	for _, o := range c.set {
		if strings.HasPrefix(o.Name, "nodejs_") && o.Label(n) == v {
			src := "one(" + s.Key() + ")"
			if _, ok := c.vals[src]; !ok {
				var pts []series.Point
				for _, p := range s.Points {
					pts = append(pts, series.Point{Sec: p.Sec, Value: 1})
				}
				c.define(src, pts)
			}
			return src
		}
	}
	return ""
}

// sameScrape returns the source of the first series named gauge from the
// scrape of s (scrapeOf), "" when there is none.
func (c *context) sameScrape(s *series.Series, gauge string) string {
	n, v := scrapeOf(s)
	for _, o := range c.set.Find(gauge) {
		if n != "" && o.Label(n) != v {
			continue
		}
		return c.ofSeries(o)
	}
	return ""
}

// hostCPU reads node_exporter's CPU time by mode into one busy fraction
// per host: 1 − (idle + iowait) / all modes, over all its CPUs. Waiting for
// the disk is not CPU work, so iowait counts as idle.
func (c *context) hostCPU() []cpuSubject {
	type acc struct{ idle, all float64 }
	type host struct {
		first *series.Series
		bySec map[int]*acc
	}
	var hosts []*host
	summed := summedHosts(c.set)
	for _, s := range c.set.Find("node_cpu_seconds_total") {
		if s.Label("cpu") != "" && summed[hostKey(s)] {
			continue // one CPU's idle or iowait, kept beside the host's sums (cpuBusySource)
		}
		var h *host
		for _, o := range hosts {
			if sameLabels(o.first.Labels, s.Labels, []string{"cpu", "mode"}) {
				h = o
			}
		}
		if h == nil {
			h = &host{first: s, bySec: map[int]*acc{}}
			hosts = append(hosts, h)
		}
		mode := s.Label("mode")
		for _, p := range perSecond(s) {
			a := h.bySec[p.Sec]
			if a == nil {
				a = &acc{}
				h.bySec[p.Sec] = a
			}
			a.all += p.Value
			if mode == "idle" || mode == "iowait" {
				a.idle += p.Value
			}
		}
	}
	var out []cpuSubject
	for _, h := range hosts {
		var pts []series.Point
		for sec, a := range h.bySec {
			if a.all > 0 {
				pts = append(pts, series.Point{Sec: sec, Value: 1 - a.idle/a.all})
			}
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
		key := series.Series{Name: "node_cpu_seconds_total", Labels: without(h.first.Labels, []string{"cpu", "mode"})}
		src := c.define("busy("+key.Key()+")", pts)
		out = append(out, cpuSubject{name: roleName(h.first), source: src, label: titled(&key), what: "busy", host: key.Labels, points: pts, thresh: cpuBusy})
	}
	return out
}

func (c *context) cpuFinding(s cpuSubject, from, to int) Finding {
	b := newBuilder(KindCPUSaturation, Critical)
	b.f.Remedies = c.cpuRemedies()
	onset := b.second(from, StatOnset, "the first of the saturated scrapes")
	first := b.add(c.fig(s.source, StatValue, from, from, UnitFraction, "CPU use at the first saturated scrape, "+s.what))
	peak := b.add(c.fig(s.source, StatMax, from, to, UnitFraction, "the highest CPU use, "+s.what))
	peakSec := from
	for _, p := range s.points {
		if p.Sec >= from && p.Sec <= to && p.Value == b.fig(peak).Value {
			peakSec = p.Sec
			break
		}
	}
	what := []any{" ", s.what}
	var used, limit ref = -1, -1
	if s.limit != "" {
		used = b.add(c.fig(s.cores, StatValue, peakSec, peakSec, UnitCores, "cores used at the highest scrape"))
		ls := latestSec(c.values(s.limit), peakSec)
		limit = b.add(c.fig(s.limit, StatValue, ls, ls, UnitCores, "the cores the process may use"))
		what = []any{" of ", limit}
	}
	effect, base, near := c.loadEffect(b, from, to)
	var queued, holdState func()
	var behind bool
	if !effect && base < 0 {
		effect, behind, queued = c.queueEffect(b, s, from, to)
	} else if !effect {
		effect, queued = c.laterQueue(b, s, from, to)
	}
	held := !effect && base < 0 && c.heldThroughout(s, from, to)
	var holdVUs []any
	if !effect && !held {
		holdVUs, holdState, held = c.heldOverHold(b, s, from, to)
	}
	other, cpuBefore, loadBefore, loadNear := false, ref(-1), ref(-1), ref(-1)
	if effect { // felt by the load, but maybe not made by it
		other, cpuBefore, loadBefore, loadNear = c.filledByOther(b, s, from, to)
	}
	ownUsed, ownLimit, notOwn := c.hostOwnLow(b, s, from, to)
	c.cpuTitle(b, s, cpuVerdict{peak: peak, onset: onset, ownUsed: ownUsed, ownLimit: ownLimit, base: base, what: what, holdVUs: holdVUs,
		notOwn: notOwn, other: other, effect: effect, behind: behind, held: held, full: base < 0 && c.fullAtOnset(from)})
	b.evidence(first, append(append([]any{"first of the saturated scrapes: ", first}, what...), " at ", onset)...)
	b.evidence(peak, append(append([]any{"highest: ", peak}, what...), " at ", b.second(peakSec, StatSecond, "the scrape of the highest CPU use"))...)
	if limit >= 0 {
		b.evidence(used, "it used ", used, " of the ", limit, " it may use")
		c.overLimit(b, s, from, to)
	}
	c.clientAt(b, peakSec)
	if queued != nil {
		queued()
	}
	if holdState != nil {
		holdState()
	}
	if base >= 0 {
		b.evidence(near, "the client's mean latency: ", base, " before ", onset, ", ", near, " just after (medians)")
	}
	if other {
		ev := append([]any{"before: ", cpuBefore, " busy (median of the scrapes) with the load at "}, c.loadWords(b, loadBefore)...)
		b.evidence(cpuBefore, append(append(ev, "; from the onset: "), c.loadWords(b, loadNear)...)...)
	}
	if other {
		b.f.Remedies = append([]string{otherOnHost}, b.f.Remedies...)
	}
	if (!effect && !held) || notOwn {
		b.f.Remedies = []string{
			"the host was busy with more than this load's effect: find what else runs there (another test, a backup, a batch job, a neighbour) before reading this run's figures",
			"re-run when the host is quiet; if it is busy again, watch its CPU by process while the load rises",
		}
	}
	return b.done(from, to)
}

// cpuVerdict is what cpuFinding found, for its title.
type cpuVerdict struct {
	peak, onset, ownUsed, ownLimit, base ref
	what                                 []any
	holdVUs                              []any // the VUs of the hold a closed model's CPU held its users over (heldOverHold)
	notOwn, other, effect, held          bool
	behind                               bool // the DB's CPU behind the full pool the load queued at (behindPool)
	full                                 bool // full from the run's start with the load at its full rate (fullAtOnset)
}

// cpuTitle titles and grades the CPU finding by what the load felt of it.
func (c *context) cpuTitle(b *builder, s cpuSubject, v cpuVerdict) {
	switch {
	case v.notOwn: // the host's CPU full, its target's own use low: other processes', not the target's saturation
		b.f.Severity = Info
		b.title(name(s.name), " host CPU busy: ", v.peak, " busy (", name(s.label), ") from ", v.onset, ", not ", name(s.name),
			"'s own saturation: it used ", v.ownUsed, " of the ", v.ownLimit, " it may use (median); the host's other processes took the rest")
	case v.other:
		title := append([]any{name(s.name), " CPU saturated: ", v.peak}, v.what...)
		b.title(append(title, " (", name(s.label), ") from ", v.onset, " while the load held steady: not this load's level, but something else on the host or more work per "+c.counts().One)...)
	case v.behind:
		title := append([]any{name(s.name), " CPU saturated: ", v.peak}, v.what...)
		b.title(append(title, " (", name(s.label), ") from ", v.onset, " with the load at its full rate, behind the full pool: its connections waited inside the DB on this CPU")...)
	case v.effect:
		title := append([]any{name(s.name), " CPU saturated: ", v.peak}, v.what...)
		b.title(append(title, " (", name(s.label), ") from ", v.onset)...)
	case v.held && v.holdVUs != nil:
		b.f.Severity = Warning
		title := append([]any{name(s.name), " CPU saturated: ", v.peak}, v.what...)
		title = append(append(title, " (", name(s.label), ") from ", v.onset, " to the run's end, at its limit over most of the hold at "), v.holdVUs...)
		b.title(append(title, ": its users waited for this CPU")...)
	case v.held:
		b.f.Severity = Warning
		title := append([]any{name(s.name), " CPU saturated: ", v.peak}, v.what...)
		b.title(append(title, " (", name(s.label), ") from ", v.onset, " to the run's end: with the same users throughout, its CPU was what they waited for")...)
	default:
		b.f.Severity = Info
		title := append([]any{name(s.name), " CPU busy: ", v.peak}, v.what...)
		title = append(title, " (", name(s.label), ") from ", v.onset)
		switch {
		case v.full: // a resource full from the first second of a full load filled with it; no queue or rise shows it held the load back
			title = append(title, ", from the run's start with the load at its full rate: consistent with this load, but not shown to hold it back")
		case v.base < 0:
			title = append(title, ", from the run's start, before this load rose: not shown to be caused by it")
		default:
			title = append(title, ", but the client's latency did not rise with it: context, not caused by this load")
		}
		b.title(title...)
	}
}

// overLimit states, when the scrapes read more cores than the process may
// use, that the share shown is capped at 100 %: the rest is the jitter of
// the scrapes' intervals that the CPU-time rate is taken over.
func (c *context) overLimit(b *builder, s cpuSubject, from, to int) {
	if s.raw == "" {
		return
	}
	f := c.fig(s.raw, StatMax, from, to, UnitFraction, "the highest CPU use read, before capped at the limit")
	if f.Value <= 1 {
		return
	}
	r := b.add(f)
	b.evidence(r, "the scrapes read up to ", r, " of its limit, more than a process can use: the jitter of the scrape intervals its CPU-time rate is taken over; its share is shown capped at its limit")
}

// heldThroughout reports whether a closed-model run kept a process's own
// CPU at its limit from its first scrape to its last: with no quieter
// second to compare, its users' throughput was what that CPU allowed. A
// host's CPU is left out (other processes may have filled it), and so is
// the open model (its queue is the proof, queueEffect).
func (c *context) heldThroughout(s cpuSubject, from, to int) bool {
	if c.open || s.host != nil || !c.toLastScrape(s, to) {
		return false
	}
	return from <= s.points[0].Sec+1
}

// cpuEffectRise is how much the client's mean latency must have risen
// when the CPU filled up for the load to be the cause; cpuEffectBase the
// client seconds before the onset a baseline needs.
const (
	cpuEffectRise = 1.5
	cpuEffectBase = 2
)

// loadEffect reports whether a resource full from the second from
// coincided with the load's effect: the client's mean latency over the 3
// seconds from it at least cpuEffectRise × (and 1 ms above) its median
// before, or, in the open model, less completed than offered there. A
// resource already full before the client had seconds to compare with is
// no proof either way, and reads as context. It returns the figures of
// the latency before and near the onset (-1 when there was no before).
func (c *context) loadEffect(b *builder, from, to int) (bool, ref, ref) {
	var before []int
	for _, s := range c.secs {
		if s.sec < from {
			before = append(before, s.sec)
		}
	}
	if len(before) < cpuEffectBase {
		return false, -1, -1
	}
	mean := c.client(SrcMean)
	base := b.add(c.fig(mean, StatMedian, before[0], from-1, UnitDuration, "the client's mean latency before the onset (median)"))
	end := min(from+2, to)
	near := b.add(c.fig(mean, StatMedian, from, end, UnitDuration, "the client's mean latency over the 3 seconds from the onset (median)"))
	bv, nv := b.fig(base).Value, b.fig(near).Value
	if nv >= cpuEffectRise*bv && nv-bv >= satLatencyAbs {
		return true, base, near
	}
	if c.open {
		var offered, done float64
		for _, s := range c.secs {
			if s.sec >= from && s.sec <= end {
				offered += s.load
				done += s.x
			}
		}
		if offered >= satBehind*done && offered-done >= satBehindGap {
			return true, base, near
		}
	}
	return false, base, near
}

// queueEffect reports whether, in the open model, at least satBehind × as
// many requests were offered as completed (and satBehindGap more) over the
// 3 seconds from the onset, and returns a function that states it. It is
// the load's effect of a resource full from the run's start, which has no
// seconds before to compare its latency with: a JVM pinned to a core at a
// rate above what the core serves is full from its first scrape. A queue
// a full pool explains (poolQueued) is no effect of this CPU: the function
// then states the pool's; unless the CPU is the DB's behind that pool
// (behindPool), reported as behind. So is a host's CPU when a loopback
// target's cgroup quota throttled it over those seconds (quotaQueued).
func (c *context) queueEffect(b *builder, s cpuSubject, from, to int) (effect, behind bool, state func()) {
	if !c.open || c.run == nil {
		return false, false, nil
	}
	end := min(from+2, to)
	o := c.fig(c.client(SrcOffered), StatSum, from, end, UnitCount, "{requests} offered from the onset, over 3 seconds at most")
	d := c.fig(c.client(SrcRequests), StatSum, from, end, UnitCount, "{requests} completed from the onset, over 3 seconds at most")
	if !(o.Value >= satBehind*d.Value && o.Value-d.Value >= satBehindGap) {
		return false, false, nil
	}
	behind = c.behindPool(s, from, to)
	if ok, state := c.poolQueued(b, from, to); ok && !behind {
		return false, false, state
	}
	why := ": the load queued"
	if behind {
		why = ": the load queued at the full pool (the " + c.queueCause.Kind + " finding), whose connections were busy inside the DB: they waited on this CPU"
	}
	effect = true
	if q := c.quotaQueued(from, to); q != "" && s.host != nil && !behind { // a host's CPU, not the throttled process's own
		effect, why = false, ": the load queued at "+q+"'s cgroup CPU quota (the "+KindCPUThrottled+" finding), not for this CPU"
	}
	return effect, behind, func() {
		or, dr := b.add(o), b.add(d)
		b.evidence(dr, "the client from ", b.second(from, StatSecond, "the onset"), " to ", b.second(end, StatSecond, "the end of the seconds compared"),
			": ", dr, " "+c.counts().Many+" completed of ", or, " offered"+why)
	}
}

// clientAt adds the evidence of what the client measured at a second: the
// throughput and response time a server-side figure goes with.
func (c *context) clientAt(b *builder, sec int) {
	for _, s := range c.all {
		if s.sec == sec && s.x > 0 {
			x := b.add(c.fig(c.client(SrcRequests), StatValue, sec, sec, UnitReqPerSec, "throughput at that second"))
			p95 := b.add(c.fig(c.client(SrcP95), StatValue, sec, sec, UnitDuration, "p95 at that second"))
			b.evidence(p95, "the client at that second: ", x, ", ", name("p95"), " ", p95)
			return
		}
	}
}

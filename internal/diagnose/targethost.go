package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// KindTargetHostBusy is a target whose CPUs other processes took: they
// were full while the target itself used less than its limit.
const KindTargetHostBusy = "target-host-busy"

// hostOthers is the share of the target's CPUs other processes must have
// used for the CPU to count as taken: one of two cores half taken (a hog
// sharing the target's core), a whole one of four.
const hostOthers = 0.25

// targetCPUs is one view of the CPUs a target may use: how busy they were,
// every process counted, and the target's own share of the same CPUs.
type targetCPUs struct {
	name, proc string // the target's short name and process (procOf)
	label      string // where the busy share comes from, for the title
	busy       string // source: the CPUs' busy share
	own        string // source: the target's share of the same CPUs
	// ownCores and cpus are the sources of the target's cores and of the
	// CPUs busy counts (own is their ratio): a node_exporter host's, or
	// those Micrometer's shares count when the JVM may use fewer
	// (micrometerView); "" when the two shares are of the CPUs it may use.
	ownCores, cpus string
	cpusWhat       string // what cpus counts, for the figure: "the host's CPUs"
	// also is a further test of a second (pinnedViews: the target ran on
	// this one CPU), and rest the host's other CPUs, for the evidence; nil
	// for a view of every CPU the target may use.
	also func(sec int) bool
	rest []oneCPU
	// wholeHost marks loadlens's reading of the whole host (localViews):
	// it is a finding only where the load felt it.
	wholeHost bool
}

// targetHostBusy finds targets that got less CPU than they could use
// because other processes on their CPUs took it: the CPUs full (cpuBusy)
// for several scrapes, other processes at least hostOthers of them, and
// the target at most 1 − hostOthers of its own limit (near its limit it is
// its own saturation, cpu-saturation). Like a full CPU, it limits the
// result only when the load felt it.
func targetHostBusy(c *context) []Finding {
	subjects := c.cpuSubjects()
	var fs []Finding
	found := map[string]bool{}
	for _, v := range c.targetCPUViews() {
		if found[v.proc] {
			continue
		}
		pts, own := c.values(v.busy), c.values(v.own)
		taken := func(i int) bool {
			o, ok := valueAt(own, pts[i].Sec)
			return ok && pts[i].Value >= cpuBusy && pts[i].Value-o >= hostOthers && !ownUseAbove(subjects, v.proc, pts[i].Sec, 1-hostOthers) &&
				!c.quotaHeld(v.proc, pts[i].Sec, 1-hostOthers) && (v.also == nil || v.also(pts[i].Sec))
		}
		// the first spell the load felt: a starved Go runtime misses scrapes, which split the spells
		for _, run := range sustainedRuns(pts, taken) {
			last := lastHolding(pts, run.first, taken)
			if f, ok := c.hostTakenFinding(v, subjects, pts[run.first].Sec, pts[last].Sec); ok {
				found[v.proc] = true
				fs = append(fs, f)
				break
			}
		}
	}
	return append(fs, cacheHostBusy(c)...) // a cache whose CPU only its exporter reports
}

// ownUseAbove reports whether the process used more than share of what it
// may use at sec, by any of its CPU subjects. Above 1 − hostOthers, other
// processes cannot have taken a quarter of its CPUs: a JVM pinned with
// taskset reads the whole host in system_cpu_usage, which another core's
// load can fill while the JVM's own core is its own.
func ownUseAbove(subjects []cpuSubject, proc string, sec int, share float64) bool {
	for _, s := range subjects {
		if s.proc == proc {
			if v, ok := valueAt(s.points, sec); ok && v > share {
				return true
			}
		}
	}
	return false
}

// targetCPUViews returns every view of a target's CPUs the series offer:
// Micrometer's system_cpu_usage beside its process_cpu_usage (both shares
// of the same CPUs: the host's, or its container's), then node_exporter's
// host beside a process of the same role.
func (c *context) targetCPUViews() []targetCPUs {
	var out []targetCPUs
	for _, sys := range c.set.Find("system_cpu_usage") {
		p := sibling(c.set, "process_cpu_usage", sys)
		if p == nil || procOf(sys) == "" {
			continue
		}
		out = append(out, c.micrometerView(sys, p))
	}
	return append(append(append(out, c.nodeViews()...), c.pinnedViews()...), c.localViews()...)
}

// nodeViews pairs each node_exporter host with the processes of its role
// whose cores are known: the target's share of the host is its cores over
// the host's CPUs (node_cpu_count, scraped at seconds of its own).
func (c *context) nodeViews() []targetCPUs {
	var out []targetCPUs
	for _, h := range c.hostCPU() {
		role, count := c.nodeCount(h.host)
		if role == "" || count == "" {
			continue
		}
		for _, p := range c.processCores() {
			if p.s.Label("role") != role || procOf(p.s) == "" {
				continue
			}
			cores := c.freshestCores(p)
			own, _ := c.ratioLatest(cores, count)
			out = append(out, targetCPUs{name: roleName(p.s), proc: procOf(p.s), label: h.label, busy: h.source, own: own, ownCores: cores, cpus: count,
				cpusWhat: "the host's CPUs"})
		}
	}
	return out
}

// nodeCount returns the role of a node_exporter host and the source of
// its CPU count, which the node preset keeps with the host's labels.
func (c *context) nodeCount(host []series.Label) (string, string) {
	for _, s := range c.set.Find("node_cpu_count") {
		if sameLabels(s.Labels, host, nil) && s.Label("role") != "" {
			return s.Label("role"), c.ofSeries(s)
		}
	}
	return "", ""
}

// processCore is a process series and the source of the cores it used.
type processCore struct {
	s     *series.Series
	cores string
}

// processCores returns every process whose CPU use is known in cores.
func (c *context) processCores() []processCore {
	var out []processCore
	for _, s := range c.set.Find(jvmCPUTime) {
		out = append(out, processCore{s, c.nsCores(s)})
	}
	for _, s := range c.set.Find("process_cpu_seconds_total") {
		out = append(out, processCore{s, c.ofSeries(s)})
	}
	return out
}

// hostTakenFinding states a target's CPUs taken by other processes
// between two seconds. It is critical when the load felt it, as a full CPU
// is; a warning when the CPUs were taken from the run's start and there is
// no quiet second to compare with; else context.
func (c *context) hostTakenFinding(v targetCPUs, subjects []cpuSubject, from, to int) (Finding, bool) {
	if v.wholeHost && !c.wantedCPU(v, from, to) {
		return Finding{}, false
	}
	b := newBuilder(KindTargetHostBusy, Critical)
	onset := b.second(from, StatOnset, "the first scrape at which other processes held the target's CPUs")
	busy := b.add(c.fig(v.busy, StatMedian, from, to, UnitFraction, "the target's CPUs in use, every process counted (median)"))
	var own, oc, n ref = -1, -1, -1
	if v.cpus != "" {
		oc = b.add(c.fig(v.ownCores, StatMedian, from, to, UnitCores, "cores the target used (median)"))
		n = b.add(c.fig(v.cpus, StatMedian, from, to, UnitCores, v.cpusWhat))
		own = b.derive(StatRatio, UnitFraction, "the target's share of "+v.cpusWhat, oc, n)
	} else {
		own = b.add(c.fig(v.own, StatMedian, from, to, UnitFraction, "the target's own share of the same CPUs (median)"))
	}
	if math.IsNaN(b.fig(busy).Value) || math.IsNaN(b.fig(own).Value) {
		return Finding{}, false
	}
	others := b.derive(StatDiff, UnitFraction, "the share of the target's CPUs other processes used", busy, own)
	effect, base, near := false, ref(-1), ref(-1)
	if c.quietBefore(v.busy, from) {
		effect, base, near = c.loadEffect(b, from, to)
	}
	var queued func()
	if !effect && base < 0 {
		effect, queued = c.spellQueued(b, v.busy, from, to)
	}
	its, it := "its CPUs ", "the CPUs it may use: "
	if v.hostShares() {
		its, it = "its host's CPUs ", "the host's CPUs (more than it may use): "
	}
	title := []any{name(v.name), " CPU taken by other processes from ", onset, ": ", its, busy, " busy, ", others,
		" by the host's other processes, ", own, " by itself (", name(v.label), ")"}
	switch {
	case effect:
	case v.wholeHost:
		return Finding{}, false
	case base < 0:
		b.f.Severity = Warning
		title = append(title, ", from the run's start: no quiet second to compare this load with")
	default:
		b.f.Severity = Info
		title = append(title, ", but the client's latency did not rise with it: context, not what limited this load")
	}
	b.title(title...)
	b.evidence(busy, it, busy, " in use, every process counted, from ", onset, " (median)")
	switch {
	case v.also != nil:
		b.evidence(own, "the target itself: ", oc, " of the ", n, " it may run on (", own, "); other processes: ", others)
		c.restEvidence(b, v.rest, oc, from, to)
	case v.hostShares():
		b.evidence(own, "the target itself: ", oc, " of the ", n, " process_cpu_usage is a share of (", own, "); other processes: ", others)
	case n >= 0:
		b.evidence(own, "the target itself: ", oc, " of the host's ", n, " (", own, "); other processes: ", others)
	default:
		b.evidence(own, "the target itself: ", own, " of them; other processes: ", others)
	}
	c.ownLimitEvidence(b, subjects, v.proc, from, to, n >= 0)
	c.clientAt(b, from)
	if queued != nil {
		queued()
	}
	if base >= 0 {
		b.evidence(near, "the client's mean latency: ", base, " before ", onset, ", ", near, " just after (medians)")
	}
	return b.done(from, to), true
}

// quietBefore reports whether the CPUs read by source were less than full
// at some scrape before the second from: only then do the client's seconds
// before it show the load without the other processes. A hog already
// running when the run began filled them from the first reading, though
// the finding's onset came later (a JVM's first CPU rate read 0.77 cores
// of its 1, as if its own). A reading of exactly 0 is none: Micrometer's
// system_cpu_usage starts there.
func (c *context) quietBefore(source string, from int) bool {
	for _, p := range c.values(source) {
		if p.Sec < from && p.Value > 0 && p.Value < cpuBusy {
			return true
		}
	}
	return false
}

// ownLimitEvidence states how much of its own limit the target used
// meanwhile, by its first CPU subject: it was not its own saturation. In
// cores when the finding states the target's use in cores (inCores): a
// share of its limit beside a share of the host's CPUs reads as two uses.
func (c *context) ownLimitEvidence(b *builder, subjects []cpuSubject, proc string, from, to int, inCores bool) {
	for _, s := range subjects {
		if s.proc != proc {
			continue
		}
		u := b.add(c.fig(s.source, StatMedian, from, to, UnitFraction, "the target's CPU use, "+s.what+" (median)"))
		if math.IsNaN(b.fig(u).Value) {
			continue
		}
		if s.limit != "" && inCores && s.cores != "" {
			used := b.add(c.fig(s.cores, StatMedian, from, to, UnitCores, "cores the target used (median)"))
			l := b.add(c.fig(s.limit, StatMedian, from, to, UnitCores, "the cores the process may use"))
			b.evidence(used, "it used ", used, " of the ", l, " it may use (median): below its limit, so not its own saturation")
		} else if s.limit != "" {
			l := b.add(c.fig(s.limit, StatMedian, from, to, UnitCores, "the cores the process may use"))
			b.evidence(u, "it used ", u, " of the ", l, " it may use (median): below its limit, so not its own saturation")
		} else {
			b.evidence(u, "its own CPU use: ", u, " ", s.what, " (median): below its limit, so not its own saturation")
		}
		return
	}
}

// spellQueued is queueEffect over the first 3 seconds of the spell from
// from to to in which the open model's load queued: from the onset, from
// the run's start when the CPUs were full before it (fullSince), or later
// in the spell, the CPUs still taken. A host full from the first second
// has no quiet second to compare latency with, and other processes' load
// moves within it: the second rerun of trial A40's step at 30 req/s found
// the host full from 0:00 and the app at 0.16–0.43 of its core, which
// queued only at 0:13–0:15 (8, 29, 33 of 30 req/s, p50 up to 1.1 s).
func (c *context) spellQueued(b *builder, busy string, from, to int) (bool, func()) {
	starts := []int{from}
	if start := c.fullSince(busy, from); start < from {
		starts = append(starts, start)
	}
	for sec := from + 1; sec <= to-2; sec++ {
		starts = append(starts, sec)
	}
	for _, sec := range starts {
		// no subject: the target's host taken by others is never the DB's CPU behind its pool
		if ok, _, f := c.queueEffect(b, cpuSubject{}, sec, to); ok || f != nil {
			return ok, f
		}
	}
	return false, nil
}

// fullSince is the run's first second when the CPUs read by source were
// full at every scrape before from, else from: the target's own CPU, a
// rate, has its first reading a scrape after the host's, and the queue of
// a target starved from the start builds before it (trial A40's step at
// 20 req/s completed 6, 17 and 11 in its first seconds, the host full).
// The onset's own seconds are read first: a later spell's queue is its own.
func (c *context) fullSince(source string, from int) int {
	if len(c.secs) == 0 || c.quietBefore(source, from) {
		return from
	}
	return min(from, c.secs[0].sec)
}

package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// Generator thresholds. Above 85 % of its cores the generator's own
// scheduling and timing start to show in the latencies it reports. Lag is
// judged against the target's response time: 20 ms of late starts matter
// little beside a 2 s response and a lot beside a 5 ms one. Each signal
// must last 3 whole seconds in a row, so one GC pause or CI hiccup cannot
// raise it. Late starts while loadlens itself used little CPU are blamed on
// the host when the host's CPUs were 85 % busy, or on the hypervisor when
// it took a tenth of them (steal).
const (
	genCPU      = 0.85
	genLagAbs   = 0.020 // s
	genLagShare = 0.2   // of the second's p95
	genSeconds  = 3
	// genLagWindow is the span in which genSeconds late seconds make a lag
	// episode, in a row or not: on a host shared with a busy process the
	// scheduler stalls in single seconds (0:04, 0:05, 0:10, 0:13 of one trial,
	// p95 199 ms against a 5 ms target), never three in a row.
	genLagWindow   = 10
	genDropShare   = 0.01 // of the iterations offered
	genLatencySame = 1.5  // the target's latency rose less than this while dropping
	hostBusy       = 0.85 // of the host's CPUs, every process counted
	hostSteal      = 0.10 // of the host's CPUs taken by the hypervisor
	// genWaitShare and genWaitMin: loadlens's threads waited, runnable, for
	// a CPU at least 0.75 × as long as they ran, and at least 0.15 cores'
	// worth, for genSeconds whole seconds: on a quiet host the wait is a few
	// percent of the run time; sharing one CPU with one busy process, the
	// trial measured 0.87–6× and 0.18–0.72 cores. The floor keeps a light
	// run (0.09 cores at 2,000/s), whose wake-ups each wait some tens of µs
	// on a loaded host, from counting: 0.1 cores there.
	genWaitShare = 0.75
	genWaitMin   = 0.15 // cores
	// genWaitDelayShare: a wait for a CPU whose delay on each response
	// (lag or scheduling latency p99) stays under this share of the mean
	// response time leaves the figures the target's within a few percent.
	genWaitDelayShare = 0.1
	// genBehind is the scheduler lag p99 from which a pool held by the
	// target's latency counts as held by a scheduler behind its schedule
	// (the engine's onTimeBehind).
	genBehind = 0.1 // s
)

// generatorBound finds the seconds in which loadlens itself, not the
// target, limited the test: its CPU was used up, its scheduler started
// iterations late, or it ran out of VUs while the target was not slower.
// Late starts on a host busy with other work are a finding of their own.
// Beside the target's own errors or slowdown it is a warning that follows
// them (generatoralso.go).
func generatorBound(c *context) []Finding {
	if c.run == nil {
		return nil
	}
	b := newBuilder(KindGeneratorBound, Critical)
	var parts []any
	from, to := -1, -1
	cover := func(a, z int) {
		if from < 0 || a < from {
			from = a
		}
		to = max(to, z)
	}
	signals := 0
	join := func(p []any) {
		if len(parts) > 0 {
			parts = append(parts, ", ")
		}
		parts = append(parts, p...)
		signals++
	}
	cpuBusy := c.ownLimits(b, join, cover)
	var hostBusy []Finding
	if lf, ll, ok := c.lagEpisode(); ok {
		if f, busy := c.hostBusyFinding(lf, ll, c.lagLate(c.client(SrcLag), "; iterations started late, lag ", "the highest scheduler lag p99", "highest lag "), true); busy && !cpuBusy {
			hostBusy = append(hostBusy, f)
		} else {
			join(c.generatorLag(b, lf, ll, cpuBusy))
			cover(lf, ll)
		}
	}
	if src, sf, sl, ok := c.stallEpisode(); ok {
		if f, busy := c.hostBusyFinding(sf, sl, c.lagLate(src, "; its goroutines waited for a CPU, scheduling latency ",
			"the highest scheduling latency p99 of the generator", "highest scheduling latency "), false); busy && !cpuBusy {
			if len(hostBusy) == 0 {
				hostBusy = append(hostBusy, f)
			}
		} else {
			join(c.generatorStall(b, src, sf, sl, cpuBusy))
			cover(sf, sl)
		}
	}
	if wf, wl, ok := c.waitEpisode(); ok {
		if f, busy := c.hostBusyFinding(wf, wl, c.waitLate(wf, wl), false); busy && !cpuBusy {
			if len(hostBusy) == 0 {
				hostBusy = append(hostBusy, f)
			}
		} else {
			join(c.generatorWait(b, wf, wl))
			cover(wf, wl)
		}
	}
	if p, a, z, ok := c.lateBurst(b, signals == 0 && len(hostBusy) == 0); ok {
		join(p)
		cover(a, z)
	}
	var also []any // the target's own trouble meanwhile (generatoralso.go)
	if p, a, z, ok := c.generatorDrops(b, &also); ok {
		join(p)
		cover(a, z)
	}
	if len(parts) == 0 {
		if f, ok := c.startStall(); ok && len(hostBusy) == 0 {
			return []Finding{f}
		}
		return hostBusy
	}
	if signals > 1 {
		b.f.Severity = Critical // a few drops (generatorHeldDrops) beside a signal of their own
	}
	if w := c.weakAgent(b, from, to); len(w) > 0 {
		parts = append(append(parts, "; "), w...)
	}
	c.generatorTitle(b, from, to, parts, also, cpuBusy)
	return append(hostBusy, b.done(from, to))
}

// ownLimits joins the generator's own limits to a finding: its container
// throttled at its CPU quota, its CPU used up. Either explains its late
// starts, which a busy host then does not: it reports whether one held.
func (c *context) ownLimits(b *builder, join func([]any), cover func(int, int)) bool {
	busy := false
	if p, a, z, ok := c.generatorThrottled(b); ok {
		join(p)
		cover(a, z)
		busy = true
	}
	if p, a, z, ok := c.generatorCPU(b); ok {
		join(p)
		cover(a, z)
		busy = true
	}
	return busy
}

// agentRemedies words the generator's remedies for a run already spread
// over agents: "spread the load over several machines" is what it did.
func agentRemedies(rs []string) []string {
	for i, r := range rs {
		if r == spreadRemedy {
			rs[i] = "add agents, each on a machine of its own (the busiest agent's CPU limited the run; agents sharing a host share its CPUs)"
		}
	}
	return rs
}

// generatorSources returns the sources of loadlens's CPU use, in cores
// and as a share of its capacity, at whole seconds.
func (c *context) generatorSources() (used, capacity string, share []series.Point, ok bool) {
	for _, u := range c.set.Find(GeneratorCPU) {
		cp := sibling(c.set, GeneratorCapacity, u)
		if cp == nil {
			continue
		}
		used, capacity = c.ofSeries(u), c.ofSeries(cp)
		_, all := c.ratio(used, capacity)
		measured := c.hostMeasured()
		for _, p := range all {
			if p.Sec < c.whole && measured(p.Sec) {
				share = append(share, p)
			}
		}
		return used, capacity, share, true
	}
	return "", "", nil, false
}

// hostMeasured returns whether the host's CPU was read at a second, when
// the run read it at all. A run.db of a build whose collector, late, took
// the seconds it missed a few ms apart holds there loadlens's busy time
// over those ms (a whole core) and no host reading, the host's clock ticks
// not having moved: 18 of trial A38's 19 seconds above 0.9 cores.
func (c *context) hostMeasured() func(sec int) bool {
	host, _, ok := c.hostSources()
	pts := c.values(host)
	if !ok || len(pts) == 0 {
		return func(int) bool { return true }
	}
	read := make(map[int]bool, len(pts))
	for _, p := range pts {
		read[p.Sec] = true
	}
	return func(sec int) bool { return read[sec] }
}

// generatorCPU checks the generator's CPU use against its capacity.
func (c *context) generatorCPU(b *builder) ([]any, int, int, bool) {
	used, capSrc, share, ok := c.generatorSources()
	if !ok {
		return nil, 0, 0, false
	}
	busy := func(i int) bool { return share[i].Value >= genCPU }
	run, found := firstRun(len(share), genSeconds, busy)
	if !found {
		return nil, 0, 0, false
	}
	last := lastHolding(share, run.first, busy)
	from, to := share[run.first].Sec, share[last].Sec
	shareSrc := used + " / " + capSrc
	first := b.add(c.fig(used, StatValue, from, from, UnitNumber, "cores loadlens used in the first busy second"))
	firstCap := b.add(c.fig(capSrc, StatValue, from, from, UnitCores, "cores loadlens may use"))
	firstShare := b.add(c.fig(shareSrc, StatValue, from, from, UnitFraction, "share of its cores loadlens used in the first busy second"))
	peak := b.add(c.fig(shareSrc, StatMax, from, to, UnitFraction, "the highest share of its cores loadlens used"))
	peakSec := from
	for _, p := range share {
		if p.Sec >= from && p.Sec <= to && p.Value == b.fig(peak).Value {
			peakSec = p.Sec
			break
		}
	}
	peakUsed := b.add(c.fig(used, StatValue, peakSec, peakSec, UnitNumber, "cores loadlens used at its busiest second"))
	peakCap := b.add(c.fig(capSrc, StatValue, peakSec, peakSec, UnitCores, "cores loadlens may use"))
	who := "loadlens"
	if c.distributed() {
		who = "the busiest agent" // the generator series are its, each second; the coordinator makes no load
	}
	b.evidence(first, who+" used ", first, " of ", firstCap, " (", firstShare, ") at ", b.second(from, StatSecond, "the first busy second"))
	b.evidence(peakUsed, "highest: ", peakUsed, " of ", peakCap, " (", peak, ") at ", b.second(peakSec, StatSecond, "the busiest second"))
	return []any{"its CPU at ", peak, " of ", peakCap}, from, to, true
}

// lagEpisode returns the first whole seconds in which the scheduler started
// iterations late, sustained, by second.
func (c *context) lagEpisode() (int, int, bool) {
	late := func(i int) bool {
		s := &c.secs[i]
		return s.lag >= max(genLagAbs, genLagShare*s.p95)
	}
	run, ok := firstCluster(len(c.secs), genSeconds, genLagWindow, late)
	if !ok {
		return 0, 0, false
	}
	last := run.last
	for i := run.last; i < len(c.secs); i++ {
		if late(i) {
			last = i
		}
	}
	return c.secs[run.first].sec, c.secs[last].sec, true
}

// generatorLag states the scheduler's lag between two seconds, with the
// CPU of loadlens and of its host where recorded.
func (c *context) generatorLag(b *builder, from, to int, cpuBusy bool) []any {
	lag := c.client(SrcLag)
	first := b.add(c.fig(lag, StatValue, from, from, UnitDuration, "scheduler lag p99 in the first late second"))
	peak := b.add(c.fig(lag, StatMax, from, to, UnitDuration, "the highest scheduler lag p99"))
	late := []any{"iterations started late: lag ", name("p99"), " ", first}
	if p95 := c.client(SrcP95); c.has(p95, from) {
		late = append(late, " beside a ", name("p95"), " of ", b.add(c.fig(p95, StatValue, from, from, UnitDuration, "the target's p95 in the first late second")))
	}
	b.evidence(first, append(late, " at ", b.second(from, StatSecond, "the first late second"))...)
	b.evidence(peak, "highest lag ", name("p99"), ": ", peak)
	if !cpuBusy {
		if used, _, _, ok := c.generatorSources(); ok {
			u := b.add(c.fig(used, StatMedian, from, to, UnitCores, "cores loadlens used meanwhile (median)"))
			parts := []any{"meanwhile loadlens used ", u}
			if host, cpus, ok := c.hostSources(); ok {
				h := b.add(c.fig(host, StatMedian, from, to, UnitCores, "cores busy on the host meanwhile (median)"))
				n := b.add(c.fig(cpus, StatMedian, from, to, UnitCount, "the host's CPUs"))
				parts = append(parts, " and the "+c.hostNoun()+" ", h, " of ", n, " CPUs: not a lack of CPU (a GC pause or a blocked process?)")
			}
			b.evidence(u, parts...)
		}
	}
	return []any{"scheduler lag ", name("p99"), " up to ", peak}
}

// stallEpisode returns the source of the generator's scheduling latency
// and the first whole seconds in which it was long beside the target's
// latency, sustained: loadlens's goroutines, the VUs among them, waited
// for a CPU while responses waited to be read. It is the closed model's
// signal of a starved generator, which has no schedule to be late on.
func (c *context) stallEpisode() (string, int, int, bool) {
	for _, s := range c.set.Find(GeneratorStall) {
		src := c.ofSeries(s)
		var pts []series.Point
		for _, p := range c.values(src) {
			if p.Sec < c.whole {
				pts = append(pts, p)
			}
		}
		p95 := c.values(c.client(SrcP95))
		stalled := func(i int) bool {
			r, _ := valueAt(p95, pts[i].Sec)
			return pts[i].Value >= max(genLagAbs, genLagShare*r)
		}
		run, ok := firstRun(len(pts), genSeconds, stalled)
		if !ok {
			continue
		}
		last := lastHolding(pts, run.first, stalled)
		return src, pts[run.first].Sec, pts[last].Sec, true
	}
	return "", 0, 0, false
}

// generatorStall states the generator's scheduling latency between two
// seconds, beside the target's p95, with the time its threads waited for a
// CPU and the CPU of loadlens and its host where recorded.
func (c *context) generatorStall(b *builder, src string, from, to int, cpuBusy bool) []any {
	first := b.add(c.fig(src, StatValue, from, from, UnitDuration, "the generator's scheduling latency p99 in the first stalled second"))
	peak := b.add(c.fig(src, StatMax, from, to, UnitDuration, "the highest scheduling latency p99 of the generator"))
	ev := []any{"loadlens's goroutines waited ", first, " (", name("p99"), ") for a CPU"}
	if p95 := c.client(SrcP95); c.has(p95, from) {
		ev = append(ev, " beside a ", name("p95"), " of ", b.add(c.fig(p95, StatValue, from, from, UnitDuration, "the p95 in the first stalled second")))
	}
	b.evidence(first, append(ev, " at ", b.second(from, StatSecond, "the first stalled second"), ": responses waited to be read")...)
	b.evidence(peak, "highest scheduling latency ", name("p99"), ": ", peak)
	for _, w := range c.set.Find(GeneratorCPUWait) {
		wait := b.add(c.fig(c.ofSeries(w), StatMedian, from, to, UnitCores, "cores' worth of time loadlens's threads waited for a CPU (median)"))
		b.evidence(wait, "loadlens's threads were runnable but not running for ", wait, " (median)")
		break
	}
	if !cpuBusy {
		if used, _, _, ok := c.generatorSources(); ok {
			u := b.add(c.fig(used, StatMedian, from, to, UnitCores, "cores loadlens used meanwhile (median)"))
			b.evidence(u, "meanwhile loadlens used ", u, ": it got less CPU than it asked for")
		}
	}
	return []any{"its goroutines waited up to ", peak, " for a CPU (scheduling latency ", name("p99"), ")"}
}

// hostSources returns the sources of the host's busy cores and its CPUs.
func (c *context) hostSources() (host, cpus string, ok bool) {
	for _, h := range c.set.Find(HostCPU) {
		if n := sibling(c.set, HostCPUs, h); n != nil {
			return c.ofSeries(h), c.ofSeries(n), true
		}
	}
	return "", "", false
}

// lateSignal adds the figures of what showed loadlens late (its lag, its
// scheduling latency, its wait for a CPU) to a finding, and returns the
// words of the title and a function that adds their evidence.
type lateSignal func(b *builder, from, to int) (title []any, evidence func())

// lagLate is the late signal of a duration source's peak p99.
func (c *context) lagLate(src, words, what, evWords string) lateSignal {
	return func(b *builder, from, to int) ([]any, func()) {
		lag := b.add(c.fig(src, StatMax, from, to, UnitDuration, what))
		return []any{words, name("p99"), " up to ", lag}, func() { b.evidence(lag, evWords, name("p99"), ": ", lag) }
	}
}

// hostBusyFinding says whether the host, not loadlens, was short of CPU
// while loadlens was late (late says how): busy with other processes, or
// robbed by the hypervisor. byLag says late is the start lag, which
// lagGrade weighs against the latencies: a goroutine's wait to read an
// answer is no lag the run's lag histogram holds.
func (c *context) hostBusyFinding(from, to int, late lateSignal, byLag bool) (Finding, bool) {
	v, ok := c.busiestHost(c.hostViews(from, to), from, to)
	if !ok {
		return Finding{}, false
	}
	b := newBuilder(KindHostBusy, Critical)
	h := b.add(c.fig(v.host, StatMedian, from, to, UnitNumber, "cores busy on the host, every process counted (median)"))
	n := b.add(c.fig(v.cpus, StatMedian, from, to, UnitCores, "the host's CPUs"))
	hs := b.derive(StatRatio, UnitFraction, "share of the host's CPUs in use", h, n)
	var steal, ss ref = -1, -1
	if st, ok := c.stealFig(from, to); ok && v.steal {
		steal = b.add(st)
		ss = b.derive(StatRatio, UnitFraction, "share of the host's CPUs taken by the hypervisor", steal, n)
	}
	busy := b.fig(hs).Value >= hostBusy
	stolen := ss >= 0 && b.fig(ss).Value >= hostSteal
	if !busy && !stolen {
		return Finding{}, false
	}
	var own, os ref = -1, -1
	if v.own != "" {
		own = b.add(c.fig(v.own, StatMedian, from, to, UnitCores, "cores loadlens used (median)"))
		os = b.derive(StatRatio, UnitFraction, "share of the host's CPUs loadlens used", own, n)
	}
	lateWords, lateEvidence := late(b, from, to)
	onset := b.second(from, StatOnset, "the first late second")
	title := []any{"The generator's " + c.hostNoun() + " was short of CPU from ", onset, ": "}
	switch {
	case busy && v.agent != "": // "agent 2 …: its host was 1.9 of 2 cores busy while loadlens used 0.3 cores"
		title = append(append(title, v.whose()...), h, " of ", n, " busy")
		if own >= 0 {
			title = append(title, " while loadlens used ", own)
		}
	case busy:
		title = append(title, "it was busy with other processes, ", hs, " of ", n, " in use")
		if os >= 0 {
			title = append(title, ", loadlens used ", os)
		}
	default:
		title = append(title, "the hypervisor took ", ss, " of its ", n, " (steal)")
	}
	b.evidence(hs, "the "+c.hostNoun()+"'s CPUs in use, every process counted: ", h, " of ", n, " (", hs, ")")
	c.nodeEvidence(b, from, to)
	if own >= 0 {
		b.evidence(os, "loadlens itself: ", own, " (", os, " of the host)")
	}
	if steal >= 0 {
		b.evidence(ss, "taken by the hypervisor (steal): ", steal, " (", ss, ")")
	}
	lateEvidence()
	b.f.Remedies = hostBusyRemedies()
	also, starved := c.targetFailed(b, from, to), []any(nil)
	if also == nil {
		if st, ok := c.generatorStarved(to); ok { // its lag understates how late it read the answers
			starved = c.starvedWords(b, st)
		} else if also = c.targetQueued(b, from); also == nil {
			also = c.targetStepped(b)
		}
	}
	switch {
	case also != nil:
		alsoTitle(b, append(title, lateWords...), also)
	case starved != nil:
		b.title(append(append(append(title, lateWords...), starved...), NotTheTargets)...)
	default:
		var levels []lagLevel
		if byLag {
			levels = c.lagLevels(b)
		}
		end, remedy, graded := lagGrade(b, levels)
		if !graded {
			end = []any{NotTheTargets}
		} else {
			b.f.Remedies[0] = remedy
		}
		b.title(append(append(title, lateWords...), end...)...)
	}
	return b.done(from, to), true
}

// hostBusyRemedies are the remedies of a host short of CPU, a fresh
// slice: lagGrade may replace the first.
func hostBusyRemedies() []string {
	return []string{
		"do not use these figures: the generator could not keep its schedule on a busy host",
		"run loadlens where nothing else competes for the CPU (stop other jobs, or a machine of its own)",
		"a target on the same host (127.0.0.1, a local container) is one of those processes: give it and loadlens cores of their own (taskset -c) or separate machines",
		"on a cloud VM with steal, use a larger or dedicated instance",
	}
}

// dropEpisode returns the first whole seconds in which the open model
// dropped iterations for lack of a VU, sustained.
func (c *context) dropEpisode() (span, bool) {
	dropping := func(i int) bool {
		s := &c.secs[i]
		return s.dropped >= 1 && s.dropped >= genDropShare*s.started
	}
	return firstRun(len(c.secs), genSeconds, dropping)
}

// generatorDrops checks for open-model iterations dropped for lack of a VU
// while the target answered as fast as before and loadlens, not the
// target, held the pool: the target never saw the load the test asked for.
// Drops while every VU waited for the target are targetHeldVUs's. Drops
// too few or too scattered for an episode are the generator's still when
// it held the pool itself (generatorHeldDrops).
func (c *context) generatorDrops(b *builder, also *[]any) ([]any, int, int, bool) {
	run, ok := c.dropEpisode()
	if !ok {
		return c.generatorHeldDrops(b)
	}
	from, to := c.secs[run.first].sec, c.secs[run.last].sec
	if c.heldByTarget(from, to) {
		return nil, 0, 0, false
	}
	lo := max(run.first-5, 0)
	if run.first-lo < 2 {
		lo = run.first
	}
	hi := max(run.first-1, lo)
	mean := c.client(SrcMean)
	baseline := c.fig(mean, StatMedian, c.secs[lo].sec, c.secs[hi].sec, UnitDuration, "mean response time before the drops (median of the seconds)")
	during := c.fig(mean, StatMedian, from, to, UnitDuration, "mean response time while dropping (median of the seconds)")
	slower := math.IsNaN(baseline.Value) || math.IsNaN(during.Value) ||
		(during.Value >= genLatencySame*baseline.Value && during.Value-baseline.Value >= satLatencyAbs)
	self := c.heldBy(from, to, generatorHeld) // the engine saw its VUs wait for a CPU: their latency is loadlens's too
	if slower && !self {
		return nil, 0, 0, false // the target slowed down: saturation, not the generator
	}
	d := b.add(c.fig(c.client(SrcDropped), StatSum, from, to, UnitCount, "iterations dropped for lack of a VU"))
	vm := b.add(c.fig(c.client(SrcVUsMax), StatMax, from, to, UnitCount, "VUs allocated"))
	b.evidence(d, d, " iterations dropped from ", b.second(from, StatSecond, "the first dropping second"), " to ",
		b.second(to, StatSecond, "the last dropping second"), ": no free VU")
	*also = c.dropLatency(b, baseline, during, self)
	b.evidence(vm, "VUs allocated: ", vm)
	if held, why, ok := c.poolHeld(b, from, to, func(string) bool { return true }); ok {
		b.evidence(held, "the VU pool was held at ", held, " by ", why)
		return []any{d, " iterations dropped for lack of VUs, the pool held at ", held, " by ", why}, from, to, true
	}
	return []any{d, " iterations dropped for lack of VUs"}, from, to, true
}

// generatorHeld reports whether a pool held for reason was held by
// loadlens itself: its CPU, or its running behind its schedule.
func generatorHeld(reason string) bool {
	return reason == "generator_cpu" || reason == "generator_behind"
}

// heldBy reports whether the VU pool was held, between two seconds, for a
// reason want accepts.
func (c *context) heldBy(from, to int, want func(reason string) bool) bool {
	for _, h := range c.set.Find(GeneratorPoolHeld) {
		if want(h.Label("reason")) && c.has(c.ofSeries(h), to) {
			return true
		}
	}
	return false
}

// poolHeld adds the size the VU pool was held at between two seconds, for
// the first reason that want accepts, and says what held it.
func (c *context) poolHeld(b *builder, from, to int, want func(reason string) bool) (ref, string, bool) {
	for _, h := range c.set.Find(GeneratorPoolHeld) {
		src := c.ofSeries(h)
		if !c.has(src, to) || !want(h.Label("reason")) {
			continue
		}
		held := b.add(c.fig(src, StatMax, from, to, UnitCount, "the size the VU pool was held at"))
		return held, heldWords(h.Label("reason")), true
	}
	return -1, "", false
}

// heldWords says what an open-model VU pool was held by, from the reason
// label of GeneratorPoolHeld.
func heldWords(reason string) string {
	switch reason {
	case "max_vus":
		return "max_vus"
	case "open_files":
		return "the process's open-file limit"
	case "generator_cpu":
		return "loadlens's own CPU, used up or taken by other processes"
	case "generator_behind":
		return "loadlens running behind its schedule"
	case "latency":
		return "what the target's latency explains (Little's law)"
	case "growth":
		return "its growth rate"
	}
	return "the generator"
}

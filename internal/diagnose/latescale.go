package diagnose

import "github.com/loadlens/loadlens/internal/series"

// Late scale-out thresholds. A dip is the throughput, smoothed over 3
// seconds, 15 % or more below its median over the 10 seconds before
// scaling started: a steady run's second-to-second noise stays within a
// few percent, and case study 2's drops were far deeper. It counts from
// the onset until 10 seconds after the new replicas were available, the
// time a cold JVM takes to serve at speed. The service was already
// saturated when its CPU was at 80 % or more of its limits as scaling
// started: queueing for the CPU grows as 1/(1−ρ), five-fold at 80 %, so
// replicas that start there arrive after the latency and the dip.
const (
	dipShare    = 0.15
	dipBaseline = 10
	dipAfter    = 10
	lateCPU     = 0.8
)

// lateScaleOut finds deployments whose replicas rose during the run while
// the throughput dipped, and which were already out of CPU when scaling
// started: the autoscaler reacted to saturation instead of preventing it.
func lateScaleOut(c *context) []Finding {
	if len(c.secs) < satMinSeconds {
		return nil
	}
	lo, hi := c.secs[0].sec, c.secs[len(c.secs)-1].sec
	xs := smooth(c.column(func(s *clientSecond) float64 { return s.x }), 1)
	var fs []Finding
	for _, d := range c.deployments() {
		so, ok := d.scaledOut(lo, hi)
		if !ok {
			continue
		}
		bFrom, bTo := max(lo, so.onset-dipBaseline), so.onset-1
		if bTo-bFrom+1 < 3 {
			continue // too little history before scaling to know the level
		}
		reqs := c.client(SrcRequests)
		base := aggregate(c.values(reqs), StatMedian, bFrom, bTo)
		low := -1
		for i, s := range c.secs {
			if s.sec >= so.onset && s.sec <= so.done+dipAfter && (low < 0 || xs[i] < xs[low]) {
				low = i
			}
		}
		if low < 0 || xs[low] > (1-dipShare)*base {
			continue
		}
		cpu, ok := c.deploymentCPU(d, so.onset)
		if !ok || cpu.used < lateCPU*cpu.limit {
			continue
		}
		fs = append(fs, c.lateFinding(d, so, bFrom, bTo, low, cpu))
	}
	return fs
}

// deploymentCPU is the CPU a deployment's containers used, summed over
// its pods, and their limits, at the last scrapes before a second.
type deploymentCPU struct {
	usedSrc, limitSrc string
	usedSec, limitSec int
	used, limit       float64
}

// deploymentCPU reads the CPU of d's pods (named d-…) as scaling started:
// their cAdvisor use at its last scrape up to onset, and their limits
// (kube-state-metrics) at its last scrape before onset, before the new
// pods were counted.
func (c *context) deploymentCPU(d deployment, onset int) (deploymentCPU, bool) {
	prefix := d.name + "-"
	usedSrc, used := c.total(containerCPU, "namespace", d.namespace, "pod_prefix", prefix)
	limitSrc, limits := c.total(kubeLimits, "namespace", d.namespace, "pod_prefix", prefix, "resource", "cpu")
	u, l := lastBefore(used, onset+1), lastBefore(limits, onset)
	if u < 0 || l < 0 || onset-used[u].Sec > maxPointAge || onset-limits[l].Sec > maxPointAge || limits[l].Value <= 0 {
		return deploymentCPU{}, false
	}
	return deploymentCPU{usedSrc: usedSrc, limitSrc: limitSrc, usedSec: used[u].Sec, limitSec: limits[l].Sec,
		used: used[u].Value, limit: limits[l].Value}, true
}

// lastBefore returns the index of the last point before second sec, -1
// for none.
func lastBefore(pts []series.Point, sec int) int {
	for i := len(pts) - 1; i >= 0; i-- {
		if pts[i].Sec < sec {
			return i
		}
	}
	return -1
}

func (c *context) lateFinding(d deployment, so scaleOut, bFrom, bTo, low int, cpu deploymentCPU) Finding {
	b := newBuilder(KindLateScaleOut, Warning)
	reps := c.ofSeries(d.replicas)
	n0 := b.add(c.fig(reps, StatValue, so.from, so.from, UnitCount, "replicas at the start of the run ("+d.replicas.Name+")"))
	n1 := b.add(c.fig(reps, StatValue, so.to, so.to, UnitCount, "the most replicas during the run"))
	onset := b.second(so.onset, StatOnset, "scaling started: the first scrape asking for more replicas")
	reqs := c.client(SrcRequests)
	base := b.add(c.fig(reqs, StatMedian, bFrom, bTo, UnitReqPerSec, "throughput over the seconds before scaling started (median)"))
	lf, lt := c.window(low, 1)
	dip := b.add(c.fig(reqs, StatMedian, lf, lt, UnitReqPerSec, "the lowest throughput while scaling (median of 3 seconds)"))
	change := b.derive(StatChange, UnitChange, "change of throughput from before scaling to its lowest", dip, base)
	used := b.add(c.fig(cpu.usedSrc, StatValue, cpu.usedSec, cpu.usedSec, UnitCores, "cores the deployment's containers used at the last scrape before scaling started"))
	limit := b.add(c.fig(cpu.limitSrc, StatValue, cpu.limitSec, cpu.limitSec, UnitCores, "the CPU limits of its pods before scaling started"))
	share := b.derive(StatRatio, UnitFraction, "CPU use over the limits when scaling started", used, limit)
	b.title(name(d.name), ": throughput dipped to ", dip, " (", change, ") while replicas went from ", n0, " to ", n1,
		": the HPA scaled after the service was already saturated, its CPU at ", share, " of its limits when scaling started at ", onset)
	b.evidence(base, "throughput before scaling started: ", base)
	b.evidence(dip, "lowest while scaling: ", dip, " around ", b.second(c.secs[low].sec, StatSecond, "the second of the lowest throughput"))
	b.evidence(share, "CPU when scaling started: ", used, " of ", limit, " (", share, ") at ", b.second(cpu.usedSec, StatSecond, "the CPU scrape before scaling started"))
	line := []any{name(d.replicas.Name), ": ", n0, " → ", n1, ", all there at ", b.second(so.done, StatSecond, "the first scrape at the most replicas")}
	if d.desired != nil && c.has(c.ofSeries(d.desired), so.onset) {
		want := b.add(c.fig(c.ofSeries(d.desired), StatValue, so.onset, so.onset, UnitCount, "replicas asked for when scaling started ("+d.desired.Name+")"))
		line = append(line, "; ", want, " asked for at ", onset)
	}
	b.evidence(n1, line...)
	if d.cpuTarget != nil {
		if ts := latestSec(d.cpuTarget.Points, so.onset); c.has(c.ofSeries(d.cpuTarget), ts) {
			target := b.add(c.fig(c.ofSeries(d.cpuTarget), StatValue, ts, ts, UnitNumber, "the HPA's CPU target, % of the pods' CPU requests ("+kubeHPATarget+")"))
			b.evidence(target, "the HPA's CPU target: ", target, " % utilization of the pods' CPU requests; it scales only once the average passes it")
		}
	}
	c.clientAt(b, c.secs[low].sec)
	return b.done(so.onset, min(so.done+dipAfter, c.secs[len(c.secs)-1].sec))
}

package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// minShareSum is the least sum of process_cpu_usage readings from which the
// CPUs it counts are read: below it the JVM barely ran and the ratio is noise.
const minShareSum = 0.05

// sharedCPUsWhat names the CPUs Micrometer's shares count, for the figure.
const sharedCPUsWhat = "the CPUs process_cpu_usage is a share of"

// micrometerView is Micrometer's system_cpu_usage beside its
// process_cpu_usage. Outside a container both are shares of the whole
// host's CPUs (OperatingSystemMXBean's getCpuLoad and getProcessCpuLoad),
// while a JVM pinned with taskset may use fewer (system_cpu_count): trial
// s39's app on 1 of 2 cores read 0.0746 there for 0.149 cores. When the two
// counts differ, the view states the JVM's use in cores of the CPUs its
// shares count, as the limit evidence states it in cores of its own.
func (c *context) micrometerView(sys, p *series.Series) targetCPUs {
	v := targetCPUs{name: roleName(sys), proc: procOf(sys), label: titled(sys), busy: c.ofSeries(sys), own: c.ofSeries(p)}
	t := sibling(c.set, jvmCPUTime, sys)
	if t == nil {
		return v
	}
	cores := c.nsCores(t)
	counted, n := c.countedCPUs(cores, v.own)
	if n == 0 || n == c.jvmProcessors(sys) {
		return v
	}
	v.ownCores, v.cpus, v.cpusWhat = cores, counted, sharedCPUsWhat
	return v
}

// countedCPUs defines the source of the CPUs a share counts, from the cores
// used at the same seconds: round(Σ cores / Σ share), constant over the run
// (a ratio of sums, not a median of ratios: a CPU-time rate and a "recent"
// load cover different instants, and one second's ratio is noisy). It
// returns 0 for the count when the shares are too few to tell.
func (c *context) countedCPUs(cores, share string) (string, float64) {
	src := "round(Σ " + cores + " / Σ " + share + ")"
	sh := map[int]float64{}
	for _, p := range c.values(share) {
		sh[p.Sec] = p.Value
	}
	var sumCores, sumShare float64
	var secs []int
	for _, p := range c.values(cores) {
		if s, ok := sh[p.Sec]; ok {
			sumCores, sumShare = sumCores+p.Value, sumShare+s
			secs = append(secs, p.Sec)
		}
	}
	if sumShare < minShareSum {
		return "", 0
	}
	n := math.Round(sumCores / sumShare)
	if n < 1 {
		return "", 0
	}
	pts := make([]series.Point, 0, len(secs))
	for _, sec := range secs {
		pts = append(pts, series.Point{Sec: sec, Value: n})
	}
	return c.define(src, pts), n
}

// jvmProcessors returns the last system_cpu_count of a JVM's scrape (its
// availableProcessors), or 0 when it is not scraped.
func (c *context) jvmProcessors(s *series.Series) float64 {
	pts := c.values(c.sameScrape(s, "system_cpu_count"))
	if len(pts) == 0 {
		return 0
	}
	return pts[len(pts)-1].Value
}

// hostShares reports whether the view is Micrometer's shares of more CPUs
// than the JVM may use (micrometerView): the host's, not its own.
func (v targetCPUs) hostShares() bool { return v.cpusWhat == sharedCPUsWhat }

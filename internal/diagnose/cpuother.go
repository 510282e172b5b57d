package diagnose

// A host's CPU that jumps from well below full to full while the load
// holds steady was not filled by the load's level: something else on the
// host (another test, a build, a backup, a batch job) or more work per
// request. On a busy 2-core machine a healthy shop at a flat 100 req/s
// read "host CPU saturated … profile the busiest code" when other
// processes filled the host for its last 3 seconds. Load that rises into a
// full CPU, or CPU that climbs with growing work, is not this.
const (
	hostJumpFrom  = 0.7 // the host's busy share just before (median) below this
	hostJumpSecs  = 5   // seconds before the onset read for the CPU and the load
	steadyLoadGap = 0.1 // the load over the onset's 3 seconds within 10 % of before
)

// filledByOther reports whether host subject s became full at from while
// the client's load held steady and the host's CPU had been well below
// full, and adds the figures that show it: the CPU before, and the load
// before and at the onset.
func (c *context) filledByOther(b *builder, s cpuSubject, from, to int) (ok bool, cpu, before, near ref) {
	if s.host == nil || from-hostJumpSecs < c.secs[0].sec {
		return false, -1, -1, -1
	}
	a, end := from-hostJumpSecs, min(from+2, to)
	cpuFig := c.fig(s.source, StatMedian, a, from-1, UnitFraction, "the host's CPU use over the seconds before the onset (median of the scrapes)")
	src, unit := c.client(SrcOffered), UnitReqPerSec
	if !c.open {
		src, unit = c.client(SrcVUsAvg), UnitCount
	}
	lb := c.fig(src, StatMedian, a, from-1, unit, "the load over the seconds before the onset (median)")
	ln := c.fig(src, StatMedian, from, end, unit, "the load over the 3 seconds from the onset (median)")
	if cpuFig.Value >= hostJumpFrom || lb.Value <= 0 || ln.Value > (1+steadyLoadGap)*lb.Value || ln.Value < (1-steadyLoadGap)*lb.Value {
		return false, -1, -1, -1
	}
	return true, b.add(cpuFig), b.add(lb), b.add(ln)
}

// loadWords reads a load figure: a rate as it is, active VUs with their noun.
func (c *context) loadWords(b *builder, r ref) []any {
	if c.open {
		return []any{r}
	}
	return []any{r, b.noun(r, " VU", " VUs")}
}

// otherOnHost is the first remedy of a host filled under a steady load.
const otherOnHost = "the load held steady while the CPU filled: find what else ran on the host from the onset (another test, a build, a backup, a batch job, a neighbour) or what made each {request} costlier (a plan change, a cold cache), before reading this run's figures"

package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/loadlens/loadlens/internal/stats"
	"github.com/loadlens/loadlens/internal/units"
)

// The smallest changes ever called one, whatever the intervals say: below
// them a change is too small for a load test to stand behind.
const (
	floorRelative = 1     // percent, for req/s and latencies
	floorRatio    = 0.001 // 0.1 percentage points, for errors and checks
	// floorBetweenRuns is the least latency change called between single
	// runs: the same build run again moves a stable p50 by 1-3 % as a whole
	// (TestCompareSameTestThreeTimes: -2.3 %, -3.3 %, +2.4 % on a quiet
	// host), which no resampling within a run sees. Groups of runs measure
	// that spread themselves and keep floorRelative.
	floorBetweenRuns = 5 // percent
	// floorMedianBetweenRuns is the least p50 change called between single
	// runs: the same server run three times on a quiet CI host (others at
	// 0.00 cores) moved its p50 by -7.4 % as a whole, in every second
	// (a 5 ms sleep's wake-up, 0.4 ms), and the 5 % floor called it a change.
	floorMedianBetweenRuns = 10 // percent
	// floorTailBetweenRuns is floorBetweenRuns for p95 and p99, which
	// scheduler wake-ups move more than the median: the same trial's p95
	// moved +5.6 % as a whole between two runs on a quiet CI host.
	floorTailBetweenRuns = 10 // percent
)

// Value is one group's figure and, for every group but the baseline, its
// change against the baseline with the change's confidence interval.
type Value struct {
	Has     bool    // false when the group has no such data (endpoint absent, no checks)
	Value   float64 // req/s, milliseconds, or a ratio for errors and checks; a group's geometric (ratios: arithmetic) mean
	Samples int     // compared seconds of a single run; the runs of a group
	Runs    int     // runs behind the value
	// Delta is Value minus the baseline's; DeltaPct is it in percent of the
	// baseline's (nil when that is 0).
	Delta    *float64
	DeltaPct *float64
	// CI and CIPct bound the change at confidence 1 − alpha: CI in the
	// metric's unit, CIPct in percent of the baseline. Nil when not tested.
	CI    *Interval
	CIPct *Interval
	// MinEffect is the smallest change called one: percent for req/s and
	// latencies, a ratio for errors and checks.
	MinEffect   float64
	Significant bool // the interval excludes 0 and the change is at least MinEffect
	// Verdict is "~" for no significant change, "better" or "worse" for a
	// significant one, and "" for the baseline or a change not tested.
	Verdict   string
	Block     int    // the bootstrap's block length in seconds; 0 when runs were the replicates
	NotTested string // why there is no interval, when there is none
	// NeedSeconds is, for a change not tested, how many compared seconds
	// each run at its load would need for it to be: 0 when more seconds
	// would not help (more runs, or per-second data, would).
	NeedSeconds int
	// Drift is, for a latency, how much in percent the per-second median
	// of either run moved steadily within it (drift); 0 when neither did.
	Drift float64
	// Requests and Failed count the row's requests over the compared
	// seconds of the group's runs, and the failed ones: a latency gate
	// weighs its percentile's share against them.
	Requests, Failed int64
}

// Interval is a confidence interval.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// comparer fills in the values and changes of every row.
type comparer struct {
	opts       Options
	groups     []GroupInfo
	views      []*runView
	boot, repl bool // which methods were used
	tail       bool // the tail test stood for a percentile's stretches
	apart      bool // an error rate's seconds did not overlap (separated.go)
	minB, maxB int  // block lengths used
}

// rows makes the overall row, then one per endpoint when there are several.
func (c *comparer) rows(keys []string) []Row {
	rows := []Row{c.row(allEndpoints, 0)}
	if len(keys) > 1 {
		for k, name := range keys {
			rows = append(rows, c.row(name, k+1))
		}
	}
	return rows
}

// row computes every metric of row r.
func (c *comparer) row(name string, r int) Row {
	row := Row{Name: name}
	for m := TPS; m < numMetrics; m++ {
		line := Line{Metric: m, Values: make([]Value, len(c.groups))}
		for g := range c.groups {
			line.Values[g] = c.groupValue(g, r, m)
		}
		for g := 1; g < len(c.groups); g++ {
			c.change(&line.Values[g], line.Values[0], g, r, m)
		}
		row.Lines = append(row.Lines, line)
	}
	row.Lines = append(row.Lines, c.sessionLines(r)...)
	return row
}

// runValues returns the figures of group g's runs that have one.
func (c *comparer) runValues(g, r int, m Metric) []float64 {
	var out []float64
	for _, i := range c.groups[g].Runs {
		if x, ok := c.views[i].value(r, m); ok {
			out = append(out, x)
		}
	}
	return out
}

// groupValue is a group's figure: its run's, or the mean of its runs'.
func (c *comparer) groupValue(g, r int, m Metric) Value {
	xs := c.runValues(g, r, m)
	if len(xs) == 0 {
		return Value{}
	}
	v := Value{Has: true, Runs: len(xs), Samples: len(xs)}
	for _, i := range c.groups[g].Runs {
		reqs, failed := c.views[i].counts(r)
		v.Requests, v.Failed = v.Requests+reqs, v.Failed+failed
	}
	if len(c.groups[g].Runs) == 1 {
		v.Value = xs[0]
		v.Samples = c.views[c.groups[g].Runs[0]].info.Seconds
		return v
	}
	v.Value = stats.Mean(xs)
	if !m.isRatio() && positive(xs) {
		v.Value = math.Exp(stats.Mean(logs(xs)))
	}
	return v
}

// change fills in v's change against the baseline's value and its interval.
func (c *comparer) change(v *Value, base Value, g, r int, m Metric) {
	if !v.Has || !base.Has {
		return
	}
	d := v.Value - base.Value
	v.Delta = &d
	if base.Value != 0 {
		pct := 100 * d / base.Value
		v.DeltaPct = &pct
	}
	if !m.isRatio() && base.Value <= 0 {
		v.NotTested = "the baseline's figure is 0"
		return
	}
	a, b := c.groups[0].Runs, c.groups[g].Runs
	// A method is named in the footer only when it gave an interval.
	if len(a) == 1 && len(b) == 1 {
		c.bootstrapChange(v, base, a[0], b[0], r, m)
		c.boot = c.boot || v.CI != nil
	} else {
		c.replicateChange(v, base, g, r, m)
		c.repl = c.repl || v.CI != nil
	}
	if v.CI == nil {
		return
	}
	point := d
	if !m.isRatio() {
		point = *v.DeltaPct
	}
	lo, hi := v.Bounds(m)
	v.Significant = (lo > 0 || hi < 0) && atLeast(m, point, v.MinEffect)
	switch {
	case !v.Significant:
		v.Verdict = "~"
	case (d > 0) == m.HigherIsBetter():
		v.Verdict = "better"
	default:
		v.Verdict = "worse"
	}
}

// Bounds returns the interval on the scale changes are judged on: percent
// for req/s and latencies, the ratio's difference for errors and checks.
// It needs CI.
func (v *Value) Bounds(m Metric) (lo, hi float64) {
	if m.isRatio() {
		return v.CI.Lo, v.CI.Hi
	}
	return v.CIPct.Lo, v.CIPct.Hi
}

// logShift is the change of metric m from a to b on the scale the
// bootstrap works on: the log ratio for req/s and latencies, which keeps
// their intervals above −100 %; the difference for rates.
func logShift(m Metric, a, b float64) float64 {
	if m.isRatio() {
		return b - a
	}
	return math.Log(b / a)
}

// minSeconds is the fewest compared seconds a run needs for the bootstrap.
const minSeconds = 5

// bootstrapChange sets the interval of a change between two single runs
// from their block bootstrap distributions: the percentile interval of the
// resampled changes, moved to centre on the exact change shown, and a
// noise floor from the runs' stretches (spreadNoise) as a second test. A
// percentile whose stretches cannot hold it takes the tail test
// (tailtest.go) as its second test instead: its interval spans both, so
// a change is called only when both leave out 0.
func (c *comparer) bootstrapChange(v *Value, base Value, ia, ib, r int, m Metric) {
	va, vb := c.views[ia], c.views[ib]
	if len(va.rows[r].secs) < minSeconds || len(vb.rows[r].secs) < minSeconds {
		v.NotTested, v.NeedSeconds = fmt.Sprintf("fewer than %d compared seconds", minSeconds), minSeconds
		if m.isLatency() { // and the requests beyond the percentile the tail test needs
			v.NeedSeconds = max(minSeconds, needSeconds(va.rows[r], batchNeed(m)), needSeconds(vb.rows[r], batchNeed(m)))
		}
		return
	}
	if !va.rows[r].hasLat && m.isLatency() || !va.rows[r].hasChk && m == CheckRate {
		v.NotTested = "no per-second data"
		return
	}
	if !m.isRatio() && v.Value <= 0 {
		v.NotTested = "the figure is 0"
		return
	}
	ra, rb := va.resampled(r, c.opts.Resamples), vb.resampled(r, c.opts.Resamples)
	L := max(ra.block, rb.block)
	var tlo, thi float64
	spread, why := spreadNoise(va.rows[r], vb.rows[r], L, m, c.opts.Alpha)
	v.NeedSeconds = minBatches * L
	tail := m.isLatency() && why != ""
	if tail {
		// Stretches too few to hold the percentile: the tail test, which
		// needs none to, stands for their floor.
		spread = 0
		tlo, thi, why = tailOffsets(va.rows[r], vb.rows[r], ra, rb, m, c.opts.Alpha)
		v.NeedSeconds = max(needSeconds(va.rows[r], batchNeed(m)), needSeconds(vb.rows[r], batchNeed(m)))
	}
	if why != "" {
		if lo, hi, ok := separatedSeconds(va.rows[r], vb.rows[r], m); ok {
			v.NeedSeconds = 0
			v.setInterval(m, base, lo, hi)
			v.MinEffect = floor(m)
			c.apart = true
			return
		}
		v.NotTested = why
		return
	}
	v.NeedSeconds = 0
	point := logShift(m, base.Value, v.Value)
	lo, hi, why := bootstrapInterval(ra, rb, m, point, c.opts.Alpha)
	if why != "" {
		v.NotTested = why
		return
	}
	if tail {
		lo, hi = min(lo, point+tlo), max(hi, point+thi)
		c.tail = true
	}
	ranked := 0
	if m.isLatency() { // what the ranks decide stays decided (ranks.go)
		lo, hi, ranked = rankBounds(va.rows[r], vb.rows[r], ra, rb, m, c.opts.Alpha, lo, hi)
	}
	if !m.isRatio() {
		lo, hi = 100*math.Expm1(lo), 100*math.Expm1(hi)
	}
	v.setInterval(m, base, lo, hi)
	v.MinEffect = max(runFloor(m), halvesNoise(ra, m), halvesNoise(rb, m), spread)
	if ranked != 0 {
		v.MinEffect = c.rankedNoise(va, vb, ra, rb, r, m, ranked > 0, L, v.MinEffect)
	}
	if m.isLatency() && latencySecondsApart(va.rows[r], vb.rows[r], m) {
		v.MinEffect = runFloor(m) // a change in every second: no drift or stretch of a run made it
	}
	if m.isRate() && rateSecondsApart(va.rows[r], vb.rows[r], m) {
		// A change in every second lowers the floor to a latency's between
		// runs (a closed model's rate follows its latency), never raises it.
		v.MinEffect = max(runFloor(m), min(v.MinEffect, floorBetweenRuns))
	}
	if m.isLatency() {
		v.Drift = max(va.rows[r].drift(), vb.rows[r].drift())
		v.MinEffect = max(v.MinEffect, lagFloor(va, vb, m, base.Value))
	}
	v.Block = L
	c.noteBlock(ra.block)
	c.noteBlock(rb.block)
}

// rankedNoise is the noise floor of a latency change the ranks decided
// (worse: B slower), full the usual one: the same with the slower run's
// slowest second healed (healSlowest) when that leaves under half of it.
// A lone second that makes most of a run's noise is a stall, the change
// itself, and must not hold it back (the trial's p95 +4,297 % held back by
// a noise of 14,200 %: B's one second at 600 ms); a floor the runs' other
// seconds make too stays, as two runs of one build move that much.
func (c *comparer) rankedNoise(va, vb *runView, ra, rb *resampled, r int, m Metric, worse bool, L int, full float64) float64 {
	a, b, fast := va.rows[r], vb.rows[r], ra
	if !worse {
		a, b, fast = b, a, rb
	}
	healed := healSlowest(b, m)
	spread, why := spreadNoise(a, healed, L, m, c.opts.Alpha)
	if why != "" {
		spread = 0 // too few stretches of the runs: the tail test's case, where spread is not a floor
	}
	floor := max(runFloor(m), halvesNoise(fast, m), halvesNoise(resample(healed, 0, 1), m), spread)
	if floor < full/2 {
		return floor
	}
	return full
}

// bootstrapInterval is the bootstrap's interval of the change of metric m
// around point, on the scale logShift gives, or why there is none.
func bootstrapInterval(ra, rb *resampled, m Metric, point, alpha float64) (lo, hi float64, why string) {
	center := logShift(m, ra.full[m], rb.full[m])
	diffs := make([]float64, 0, len(ra.reps))
	xs, ys := make([]float64, 0, len(ra.reps)), make([]float64, 0, len(ra.reps))
	for k := range ra.reps {
		x, y := ra.reps[k][m], rb.reps[k][m]
		if math.IsNaN(x) || math.IsNaN(y) || (!m.isRatio() && (x <= 0 || y <= 0)) {
			return 0, 0, "too few requests to resample"
		}
		diffs = append(diffs, logShift(m, x, y)-center)
		xs, ys = append(xs, logShift(m, ra.full[m], x)), append(ys, logShift(m, rb.full[m], y))
	}
	sort.Float64s(diffs)
	scale := widening(variance(xs), variance(ys), ra, rb, alpha)
	lo = point + scale*quantileSorted(diffs, alpha/2)
	hi = point + scale*quantileSorted(diffs, 1-alpha/2)
	// The widening stretches the offsets past what any resample shows;
	// on a skewed tail that reaches changes the runs rule out (a p95 of B
	// below every p95 its own seconds give), so the interval stays within
	// the changes the two runs' resamples allow, each stretched by its
	// bias inflation: blocks shorter than the dependence draw resamples
	// too alike, and their bare range cut one server's 11 s p50 intervals
	// back to excluding 0 in 11 % of pairs, not 8.5 %.
	ia, ib := math.Sqrt(ra.inflate), math.Sqrt(rb.inflate)
	lo = max(lo, point+ib*slices.Min(ys)-ia*slices.Max(xs))
	hi = min(hi, point+ib*slices.Max(ys)-ia*slices.Min(xs))
	return lo, hi, ""
}

// needSeconds is how many compared seconds a run at this row's rate needs
// to hold need requests with a duration.
func needSeconds(rs *rowSeconds, need int64) int {
	n := latencyCount(rs)
	if n <= 0 {
		return 0
	}
	return int(math.Ceil(float64(need) * float64(len(rs.secs)) / float64(n)))
}

// widening is the factor that turns the bootstrap's percentile offsets into
// an honest interval: each run's resampled variance va, vb times its
// bias inflation, and Student's t for the few blocks the variance rests
// on (overlapping blocks: 1.5·(n/L − 1) degrees of freedom per run,
// combined as Welch–Satterthwaite), over the normal quantile.
func widening(va, vb float64, ra, rb *resampled, alpha float64) float64 {
	wa, wb := ra.inflate*va, rb.inflate*vb
	if va+vb <= 0 || wa+wb <= 0 {
		return 1
	}
	dfa := 1.5 * (float64(ra.seconds)/float64(ra.block) - 1)
	dfb := 1.5 * (float64(rb.seconds)/float64(rb.block) - 1)
	df := (wa + wb) * (wa + wb) / (wa*wa/max(dfa, 1) + wb*wb/max(dfb, 1))
	z := StudentTQuantile(1-alpha/2, 1e9)
	return math.Sqrt((wa+wb)/(va+vb)) * StudentTQuantile(1-alpha/2, df) / z
}

// halvesNoise is how far a run's own halves differ in metric m: a change
// smaller than that could come from the run drifting, not the system. It
// is the ratio's distance from 1 on logs, expm1(|log(b/a)|), so a run
// whose second half is slower and one whose second half is faster by the
// same factor make the same floor (|b/a − 1| gave 59 % for the one and
// 37 % for the other).
func halvesNoise(r *resampled, m Metric) float64 {
	a, b := r.halves[0][m], r.halves[1][m]
	if math.IsNaN(a) || math.IsNaN(b) || (!m.isRatio() && (a <= 0 || b <= 0)) {
		return 0
	}
	if m.isRatio() {
		return math.Abs(b - a)
	}
	return 100 * math.Expm1(math.Abs(math.Log(b/a)))
}

// atLeast reports whether a change is at least the minimum effect min. A
// relative change is judged on logs, as the intervals and noise floors are
// made: a fall clears a floor of min % when the ratio it leaves, 1 +
// point/100, is at most 1/(1 + min/100). So −37 % is as far as +59 %, and
// comparing B with A gives the mirrored verdict of A with B (a fall that
// had to reach −59 % itself held back 30 ms → 10 ms, while 10 ms → 30 ms
// was called). A ratio metric compares points.
func atLeast(m Metric, point, min float64) bool {
	if m.isRatio() || point >= 0 {
		return math.Abs(point) >= min
	}
	return math.Log1p(point/100) <= -math.Log1p(min/100)
}

// HeldBackByNoise reports whether a change whose interval excludes 0 was
// not called one only because it is within the runs' own noise, above the
// fixed minimum effect.
func (v *Value) HeldBackByNoise(m Metric) bool {
	if v.CI == nil || v.Significant {
		return false
	}
	lo, hi := v.Bounds(m)
	return (lo > 0 || hi < 0) && v.MinEffect > floor(m)
}

// floor is the fixed minimum effect of metric m.
// runFloor is floor between two single runs: larger for latencies, which
// move between runs of one build (floorBetweenRuns), the tail's most.
func runFloor(m Metric) float64 {
	switch {
	case m.isLatency() && m.Base() == P50:
		return floorMedianBetweenRuns
	case m.isLatency():
		return floorTailBetweenRuns
	}
	return floor(m)
}

func floor(m Metric) float64 {
	if m.isRatio() {
		return floorRatio
	}
	return floorRelative
}

func (c *comparer) noteBlock(b int) {
	if c.minB == 0 || b < c.minB {
		c.minB = b
	}
	c.maxB = max(c.maxB, b)
}

// replicateChange sets the interval of a change between two groups of runs
// by Welch's t interval over the runs' figures (their logarithms for req/s
// and latencies). With one run on a side, the other side's spread stands
// for both (Student's pooled interval), which needs 3 runs there: 2 leave
// one degree of freedom, t = 12.7, and an interval of no use. Each run's
// figure must rest on the requests a stretch needs (batchNeed), and a
// side's spread is never taken below its runs' own sampling noise: two
// runs whose p99 agree by chance say little about a third.
func (c *comparer) replicateChange(v *Value, base Value, g, r int, m Metric) {
	xa, xb := c.runValues(0, r, m), c.runValues(g, r, m)
	if len(xa) == 0 || len(xb) == 0 {
		v.NotTested = "a side has no run with this figure"
		return
	}
	if lone, most := min(len(xa), len(xb)), max(len(xa), len(xb)); lone == 1 && most < 3 {
		v.NotTested = fmt.Sprintf("%d runs against 1 leave 1 degree of freedom; give 3 runs on a side, or 2 on each", most)
		return
	}
	if why, need := c.fewRequests(g, r, m); why != "" {
		v.NotTested, v.NeedSeconds = why, need
		return
	}
	rel := !m.isRatio()
	if rel {
		if !positive(xa) || !positive(xb) {
			v.NotTested = "a run's figure is 0"
			return
		}
		xa, xb = logs(xa), logs(xb)
	}
	na, nb := float64(len(xa)), float64(len(xb))
	d := stats.Mean(xb) - stats.Mean(xa)
	wa, wb := c.withinNoise(0, r, m), c.withinNoise(g, r, m)
	sa, sb := max(variance(xa), wa), max(variance(xb), wb)
	var se2, df float64
	switch {
	case len(xa) == 1:
		se2, df = max(sb, wa)*(1/na+1/nb), nb-1
	case len(xb) == 1:
		se2, df = max(sa, wb)*(1/na+1/nb), na-1
	default:
		se2 = sa/na + sb/nb
		if se2 > 0 {
			df = se2 * se2 / ((sa/na)*(sa/na)/(na-1) + (sb/nb)*(sb/nb)/(nb-1))
		}
	}
	half := 0.0
	if se2 > 0 {
		half = StudentTQuantile(1-c.opts.Alpha/2, df) * math.Sqrt(se2)
	}
	lo, hi := d-half, d+half
	if m.isLatency() {
		lo, hi = c.groupRankBounds(g, r, m, lo, hi)
	}
	if rel {
		lo, hi = 100*math.Expm1(lo), 100*math.Expm1(hi)
	}
	v.setInterval(m, base, lo, hi)
	v.MinEffect = floor(m)
}

// fewRequests says why group g's or the baseline's runs hold too few
// requests in row r for metric m to be compared run by run, or "", and
// how many compared seconds the runs would need at their rates.
func (c *comparer) fewRequests(g, r int, m Metric) (string, int) {
	need := batchNeed(m)
	why, secs := "", 0
	for _, grp := range []int{0, g} {
		for _, i := range c.groups[grp].Runs {
			rs := c.views[i].rows[r]
			if rs == nil {
				continue
			}
			var reqs int64
			for _, s := range rs.secs {
				reqs += s.reqs
			}
			if reqs < need {
				if why == "" {
					why = fmt.Sprintf("run %s holds %s requests; a %s needs %s a run", c.views[i].info.Label, units.Count(reqs), m, units.Count(need))
				}
				if reqs > 0 {
					secs = max(secs, int(math.Ceil(float64(need)*float64(len(rs.secs))/float64(reqs))))
				}
			}
		}
	}
	return why, secs
}

// withinNoise is the mean, over group g's runs, of the variance of a run's
// figure of metric m in row r from its own seconds (the block bootstrap's,
// on the log scale for req/s and latencies, times its bias inflation): the
// least a run's figure varies between reruns. 0 when no run has enough
// seconds to resample.
func (c *comparer) withinNoise(g, r int, m Metric) float64 {
	var sum float64
	var k int
	for _, i := range c.groups[g].Runs {
		v := c.views[i]
		if v.rows[r] == nil || len(v.rows[r].secs) < minSeconds {
			continue
		}
		if m >= P50 && m <= P99 && !v.rows[r].hasLat || m == CheckRate && !v.rows[r].hasChk {
			continue
		}
		rs := v.resampled(r, c.opts.Resamples)
		full := rs.full[m]
		if math.IsNaN(full) || !m.isRatio() && full <= 0 {
			continue
		}
		xs := make([]float64, 0, len(rs.reps))
		for _, rep := range rs.reps {
			if x := rep[m]; !math.IsNaN(x) && (m.isRatio() || x > 0) {
				xs = append(xs, logShift(m, full, x))
			}
		}
		if len(xs) < len(rs.reps)/2 {
			continue
		}
		sum += rs.inflate * variance(xs)
		k++
	}
	if k == 0 {
		return 0
	}
	return sum / float64(k)
}

// setInterval stores an interval given on the primary scale, within what
// the change can be, and its other form: absolute limits of a relative
// interval are it times the baseline's figure, relative limits of an
// absolute one it divided by it.
func (v *Value) setInterval(m Metric, base Value, lo, hi float64) {
	if m.isRatio() {
		// Two rates in [0, 1] differ by at most 1 either way: Welch's t
		// over a few runs reached -104.54pp.
		lo, hi = max(lo, -1), min(hi, 1)
		v.CI = &Interval{lo, hi}
		if base.Value != 0 {
			v.CIPct = &Interval{100 * lo / base.Value, 100 * hi / base.Value}
		}
		return
	}
	v.CIPct = &Interval{lo, hi}
	v.CI = &Interval{base.Value * lo / 100, base.Value * hi / 100}
}

func positive(x []float64) bool {
	for _, v := range x {
		if v <= 0 {
			return false
		}
	}
	return true
}

func logs(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Log(v)
	}
	return out
}

// variance is the sample variance (n − 1 in the denominator).
func variance(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	m := stats.Mean(x)
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return s / float64(len(x)-1)
}

// method describes how the intervals were computed.
func (c *comparer) method() string {
	var parts []string
	if c.boot {
		blocks := units.CountOf(int64(c.minB), "second", "seconds")
		if c.maxB != c.minB {
			blocks = fmt.Sprintf("%d–%s", c.minB, units.CountOf(int64(c.maxB), "second", "seconds"))
		}
		parts = append(parts, fmt.Sprintf("circular block bootstrap over the compared seconds (%s resamples, blocks of %s)", units.Count(int64(c.opts.Resamples)), blocks))
	}
	if c.tail && c.boot {
		parts[len(parts)-1] += " and, for percentiles too thin for stretches, the tail test on the requests' ranks with the seconds as blocks (an interval spans both)"
	}
	if c.apart {
		parts = append(parts, "for error rates too thin for stretches whose runs' seconds do not overlap, the range of the seconds' own rates")
	}
	if c.repl {
		parts = append(parts, "Welch's t over the runs of each group as replicates")
	}
	if len(parts) == 0 {
		return "none: nothing could be tested"
	}
	return strings.Join(parts, "; ")
}

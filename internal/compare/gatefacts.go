package compare

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// isLatency reports whether the metric is a latency percentile.
func (m Metric) isLatency() bool { b := m.Base(); return b == P50 || b == P95 || b == P99 }

// leftOut is the share of requests a latency percentile leaves out: half
// for p50, 5 % for p95, 1 % for p99.
func (m Metric) leftOut() float64 { return (100 - m.percentile()) / 100 }

// answers says why a latency gate cannot compare its percentiles, by the
// rule a latency threshold follows (internal/metrics): a failed request is
// not a fast one. The run fails the gate when every request it sent
// failed (a refused connection takes microseconds, so a dead target's p95
// would read as a gain), or more of them failed than the percentile
// leaves out (5 % for p95) while the baseline's did not: a new failure
// share is a regression. It is not judged when the baseline's did too,
// whose figure then is no latency to compare with: two runs of one server
// whose expected 401s fail a sixth of requests changed nothing. "" when
// the percentiles are latencies of answers on both sides.
func answers(g Gate, base, v Value) (failed bool, why string) {
	m := g.Metric
	baseOver := base.Requests > 0 && failedShare(base) > m.leftOut()
	switch {
	case v.Requests > 0 && v.Failed >= v.Requests && base.Failed < base.Requests:
		return true, fmt.Sprintf("every request failed (%s sent): no latency to judge; its %s of %s is how fast they failed",
			units.Count(v.Requests), m, units.DurationMillis(v.Value))
	case baseOver && v.Requests > 0 && failedShare(v) > m.leftOut():
		return false, fmt.Sprintf("not judged: %s of the baseline's %s requests failed (%s) and %s of this run's %s (%s), more than the %s %s leaves out: neither %s is a latency of answers; %s",
			units.Count(base.Failed), units.Count(base.Requests), units.Percent(failedShare(base)),
			units.Count(v.Failed), units.Count(v.Requests), units.Percent(failedShare(v)), units.Share(m.leftOut()), m, m, expectHint)
	case v.Requests > 0 && failedShare(v) > m.leftOut():
		return true, fmt.Sprintf("%s of %s requests failed (%s): more than the %s %s leaves out, so its %s of %s is no latency of answers; %s",
			units.Count(v.Failed), units.Count(v.Requests), units.Percent(failedShare(v)), units.Share(m.leftOut()), m, m,
			units.DurationMillis(v.Value), expectHint)
	case baseOver:
		return false, fmt.Sprintf("not judged: %s of the baseline's %s requests failed (%s), more than the %s %s leaves out: its %s is no latency of answers to compare with; %s",
			units.Count(base.Failed), units.Count(base.Requests), units.Percent(failedShare(base)), units.Share(m.leftOut()), m, m, expectHint)
	}
	return false, ""
}

// expectHint is the way out when the failures are answers the test expects.
const expectHint = "if they are expected answers (a 401, a 404), declare them with expect_status and the percentile reads them"

// failedShare is the share of a value's requests that failed.
func failedShare(v Value) float64 { return float64(v.Failed) / float64(v.Requests) }

// hostLag is what the load generators of a group and of the baseline
// waited to start requests: the median compared second's scheduler lag
// p99 (the largest of a group's runs), in nanoseconds, -1 when not
// recorded, and the same at each percentile's level (laglevels.go).
type hostLag struct {
	base, run     float64
	baseAt, runAt lagLevels
	busier        int // +1: the run's host was much busier (see busier); -1: the baseline's; 0: neither
	// stealBase and stealRun are the median shares of the host's CPU time
	// stolen (the largest of a group's runs), -1 when not recorded; stolen
	// says which side lost much more (see stolen).
	stealBase, stealRun float64
	stolen              int
}

// hostLag returns the scheduler lag of group g's runs and the baseline's.
func (r *Report) hostLag(g int) hostLag {
	// the largest of a group's runs' figures, -1 when none recorded one
	largest := func(g, n int, of func(i int) float64) float64 {
		out := -1.0
		for _, i := range r.Groups[g].Runs {
			if i < n {
				out = max(out, of(i))
			}
		}
		return out
	}
	lag := func(g int) lagLevels {
		var out lagLevels
		for k := range out {
			out[k] = largest(g, len(r.lags), func(i int) float64 { return r.lags[i][k] })
		}
		return out
	}
	steal := func(g int) float64 { return largest(g, len(r.steal), func(i int) float64 { return r.steal[i] }) }
	h := hostLag{baseAt: lag(0), runAt: lag(g), stealBase: steal(0), stealRun: steal(g)}
	h.base, h.run = h.baseAt.at(P99), h.runAt.at(P99)
	h.busier = busier(h.run, h.base)
	h.stolen = stolen(h.stealRun, h.stealBase)
	return h
}

// disturbs reports whether one side's generator lagged so much more than
// the other's (its p99, as the run's note says) that the extra wait at the
// gate's percentile, in every latency it timed, could move a figure of
// baseMs by the gate's allowed change: a p99 lag reaches a p50 only as far
// as the lag at the median does.
func (h hostLag) disturbs(g Gate, baseMs float64) bool {
	if h.busier == 0 {
		return false
	}
	gap := lagGap(h.baseAt.at(g.Metric), h.runAt.at(g.Metric)) / float64(time.Millisecond)
	allowed := g.Amount
	if g.Relative {
		allowed = g.Amount / 100 * baseMs
	}
	return gap >= allowed
}

// canHideRise reports whether the baseline's extra wait could hide a rise
// past a latency gate's limit: taken whole out of the baseline's figure
// (the lag gap at the gate's percentile), the run's figure at its
// interval's high end would go past the limit. A p95 of 98.6 → 46.1 ms,
// [-66 %, -31 %], against a baseline whose generator lagged 18 ms more at
// its p95, stays within +10 % (at most -15 %) and passes; it was not judged.
func (h hostLag) canHideRise(g Gate, base, v Value) bool {
	if g.Sign < 0 || v.CI == nil {
		return true
	}
	gap := lagGap(h.baseAt.at(g.Metric), h.runAt.at(g.Metric)) / float64(time.Millisecond)
	quiet := base.Value - gap // the baseline's figure without the extra wait
	if quiet <= 0 {
		return true
	}
	worst := v.CI.Hi + gap // the run's highest figure against the quiet baseline, in ms
	if g.Relative {
		worst = 100 * worst / quiet
	}
	return worst > g.Amount+1e-12
}

// sentence says whose generator lagged, and by how much: at p99, and at
// metric m's level when it is another.
func (h hostLag) sentence(m Metric) string {
	millis := func(ns float64) string { return units.DurationMillis(ns / float64(time.Millisecond)) }
	r, b, atR, atB := millis(h.run), millis(h.base), millis(h.runAt.at(m)), millis(h.baseAt.at(m))
	if h.busier < 0 {
		r, b, atR, atB = b, r, atB, atR
	}
	level := ""
	if m.Base() != P99 {
		level = fmt.Sprintf(" and at the %s (%s vs %s)", m.Base(), atR, atB)
	}
	if h.busier > 0 {
		return fmt.Sprintf("its load generator lagged far more than the baseline's (scheduler lag p99 %s vs %s)%s: its host was busier", r, b, level)
	}
	return fmt.Sprintf("the baseline's load generator lagged far more than this run's (scheduler lag p99 %s vs %s)%s: its host was busier", r, b, level)
}

// stealMoves says whether one side's stolen CPU pushes a latency gate's
// change toward failing (+1: the run's host lost more and the gate fails
// on a rise, or the baseline's and it fails on a fall), away from it (-1),
// or neither (0).
func (h hostLag) stealMoves(g Gate) int { return h.stolen * g.Sign }

// stealSentence says whose host lost CPU to the hypervisor, and how much.
func (h hostLag) stealSentence() string {
	if h.stolen > 0 {
		return fmt.Sprintf("its host lost %s of its CPU time to other machines against %s in the baseline's (CPU steal, the median second)",
			units.Share(h.stealRun), units.Share(h.stealBase))
	}
	return fmt.Sprintf("the baseline's host lost %s of its CPU time to other machines against %s in this run's (CPU steal, the median second)",
		units.Share(h.stealBase), units.Share(h.stealRun))
}

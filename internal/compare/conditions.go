package compare

import (
	"fmt"
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/stats"
	"github.com/loadlens/loadlens/internal/units"
)

// lagNote compares the load generator's scheduler lag over the compared
// seconds of a run and of the baseline, and says when one lagged much more
// (its median per-second p99 over twice the other's and 5 ms above it):
// its host was busier, and latencies measured from each request's
// intended start include that wait, so a change may come from the host.
// It says nothing when the runs recorded no lag (closed models).
func lagNote(run, base []metrics.Second, ri, bi RunInfo) string {
	r, b := medianLag(run, ri), medianLag(base, bi)
	switch busier(r, b) {
	case 1:
		return fmt.Sprintf("its load generator lagged more than the baseline's (scheduler lag p99 %s vs %s, the median second): its host was busier, and latencies measured from the intended start include the wait",
			units.DurationMillis(r/float64(time.Millisecond)), units.DurationMillis(b/float64(time.Millisecond)))
	case -1:
		return fmt.Sprintf("the baseline's load generator lagged more than this run's (scheduler lag p99 %s vs %s, the median second): its host was busier, and its latencies include the wait",
			units.DurationMillis(b/float64(time.Millisecond)), units.DurationMillis(r/float64(time.Millisecond)))
	}
	return ""
}

// busier compares two runs' scheduler lag (medianLag, ns): +1 when run's
// is over twice base's and 5 ms above it, -1 the other way round, else 0
// (and 0 when either recorded none).
func busier(run, base float64) int {
	const slack = 5 * float64(time.Millisecond)
	switch {
	case run < 0 || base < 0:
		return 0
	case run > 2*base && run-base > slack:
		return 1
	case base > 2*run && base-run > slack:
		return -1
	}
	return 0
}

// medianLag is the median of the per-second scheduler lag p99 over the
// compared seconds in nanoseconds, or -1 when no second recorded any.
func medianLag(series []metrics.Second, ri RunInfo) float64 {
	var lags []float64
	recorded := false
	for _, s := range series {
		if s.Sec < ri.First || s.Sec > ri.Last {
			continue
		}
		recorded = recorded || s.LagP99 > 0
		lags = append(lags, float64(s.LagP99))
	}
	if !recorded {
		return -1
	}
	return stats.Median(lags)
}

// lagFloor is the smallest change of latency metric m, in percent of the
// baseline's baseMs, that two runs' own timing can show: how much more one
// run's scheduler lag was than the other's at m's level (laglevels.go),
// over the median compared second. Latencies are measured from each
// request's intended start, so the generator's wait to start it is in
// every figure; a wait both runs share cancels in the comparison, and only
// a change smaller than the difference may be the host's. (The larger of
// the two lags, as this was once, made a busy laptop's gate blind: both
// runs lagging ~6 ms, a 5 ms server made 2× slower passed 'p(95) +10%' as
// "p50 +82% < noise 99%"; the p99 lag's gap as every percentile's floor
// held a p50 +61 % back as "< noise 202 %".) A wait only adds time, yet the
// floor holds both ways: the gap also stands for how far two runs' tails
// move apart by themselves. 0 without lag in either run.
func lagFloor(a, b *runView, m Metric, baseMs float64) float64 {
	la, lb := a.lag.at(m), b.lag.at(m)
	// Both ways, though a wait only adds time: the gap also stands for how
	// far two runs' tails move apart by themselves (one-sided, three runs of
	// one 5 ms server read p99 -25 % and +69 % "changed" on a quiet host).
	if baseMs <= 0 {
		return 0
	}
	return 100 * lagGap(la, lb) / float64(time.Millisecond) / baseMs
}

// lagGap is how much more one run's lag (ns, -1 unknown) was than the
// other's: when one recorded none its wait is unknown and the other's
// stands; 0 when neither recorded one.
func lagGap(la, lb float64) float64 {
	switch {
	case la < 0 && lb < 0:
		return 0
	case la < 0 || lb < 0:
		return max(la, lb)
	}
	return math.Abs(la - lb)
}

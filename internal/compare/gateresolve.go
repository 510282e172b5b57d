package compare

import (
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/units"
)

// reachFactor is how many limits an interval may reach past its best
// estimate before a pass says nothing: beyond 3, a change of three times
// the limit would be missed 1 time in 10 or more (its estimate falls past
// the limit with probability Φ(3.92·limit/reach)).
const reachFactor = 3

// unresolved reports whether a latency change within its gate's limit
// comes from runs too noisy to resolve the limit: its
// interval reaches past the limit, and further from its best estimate than
// reachFactor limits. Such a pass would say nothing (a 1.5× slower
// service's p95 read "-2.8% [-29%, +103%]" and passed 'p(95) +10%'); far is
// the interval's end in the failing direction. A limit of 0 no data
// resolves: those gates keep failing only on a significant change.
func unresolved(g Gate, point float64, ci Interval, limit float64) (far float64, wide bool) {
	if !g.Metric.isLatency() || limit <= 0 {
		return 0, false
	}
	sign := float64(g.Sign)
	far = ci.Hi
	if sign < 0 {
		far = ci.Lo
	}
	return far, sign*far > limit+1e-12 && sign*(far-point) > reachFactor*limit+1e-12
}

// unresolvedText is the not judged verdict of an unresolved change, with
// how many more compared seconds (or runs a side) would resolve the limit:
// an interval narrows with the square root of the data behind it.
func unresolvedText(g Gate, v Value, change, allowed string, pct bool, point, far, limit float64) string {
	more := moreData(v, math.Ceil(math.Pow((far-point)/(reachFactor*limit), 2)))
	return fmt.Sprintf("not judged: %s %s is within %s, but its interval reaches %s: runs this noisy miss a change of "+
		"three times the limit 1 time in 10 or more; %s would resolve it, or gate on a figure they resolve (a lower percentile, or a wider limit)",
		g.Metric, change, allowed, gateScaleText(g.Metric, pct, far), more)
}

// unresolvedPast is unresolved's other side: a latency change past its
// gate's limit whose interval reaches back within it, further from its
// best estimate than reachFactor limits. Such a pass says nothing either:
// the s35 trial's p99 9.51 → 28.1 ms read +196 % [-23.6 %, +818 %] and
// passed 'p(99) +10%'. near is the interval's end in the passing direction.
func unresolvedPast(g Gate, point float64, ci Interval, limit float64) (near float64, wide bool) {
	if !g.Metric.isLatency() || limit <= 0 {
		return 0, false
	}
	sign := float64(g.Sign)
	near = ci.Lo
	if sign < 0 {
		near = ci.Hi
	}
	return near, sign*near <= limit+1e-12 && sign*(point-near) > reachFactor*limit+1e-12
}

// unresolvedPastText is the not judged verdict of an unresolvedPast change.
func unresolvedPastText(g Gate, v Value, change, interval, allowed string, pct bool, point, near, limit float64) string {
	more := moreData(v, math.Ceil(math.Pow((point-near)/(reachFactor*limit), 2)))
	return fmt.Sprintf("not judged: %s %s %s goes past %s, but its interval reaches back to %s: runs this noisy miss a change "+
		"of three times the limit 1 time in 10 or more, and a pass would say nothing; %s would resolve it, or gate on a figure they resolve (a lower percentile, or a wider limit)",
		g.Metric, change, interval, allowed, gateScaleText(g.Metric, pct, near), more)
}

// widerThanLag is the remedy a lagging host's verdict adds when the
// interval is too wide to judge on a quiet host too (replicates with one or
// two degrees of freedom): the data it would take, or "".
func widerThanLag(g Gate, v Value, point float64, ci Interval, limit float64) string {
	if !g.Metric.isLatency() || limit <= 0 {
		return ""
	}
	reach := max(ci.Hi-point, point-ci.Lo)
	if reach <= reachFactor*limit+1e-12 {
		return ""
	}
	return "; its interval is too wide to judge there too: " + moreData(v, math.Ceil(math.Pow(reach/(reachFactor*limit), 2))) + " would narrow it"
}

// moreData says how much more data narrows an interval k-fold in squared
// width: more compared seconds of one run, or more seconds or runs a side.
func moreData(v Value, k float64) string {
	if v.Samples > 0 && v.Runs <= 1 {
		return fmt.Sprintf("about %s a run at this load", units.CountOf(int64(k)*int64(v.Samples), "compared second", "compared seconds"))
	}
	return fmt.Sprintf("about %.0f× the compared seconds (or runs a side)", k)
}

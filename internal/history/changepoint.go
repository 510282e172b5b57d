package history

import (
	"math"
	"sort"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/stats"
)

// Method is the change-point method and its parameters: Hunter's variant
// of E-Divisive means (Fleming et al., arXiv 2301.03034, as in Apache
// Otava): E-Divisive means (Matteson & James 2014, α = 1) proposes the
// split of a segment, and a two-sample Student's t-test between the runs
// before and after it, instead of E-Divisive's random permutations,
// decides whether it is a change, so that the same runs always give the
// same answer. A segment whose best split fails gets a second chance as a
// bump (EDivisiveBump: a level that returned). Splits are proposed
// recursively inside each side; then each change point is tested again
// between its neighbours and the weakest one that fails is dropped, until
// all pass. Unlike Hunter, the t-test's level
// is shared over the splits it chose among and the series examined
// together (see Level), and each level must be held by MinRuns runs.
type Method struct {
	// Alpha is the false-alarm level of one load shape's runs: the chance
	// that stable runs show a change point in any of the Family series
	// examined together. A t-test judges the split E-Divisive chose as the
	// best of every split of its segment, so each is made at Alpha shared
	// evenly (Bonferroni) over the series and the segment's splits.
	Alpha float64
	// Family is how many series are examined together (a load shape's
	// endpoints × figures); below 1, one.
	Family int
	// MinRuns is the fewest runs on each side of a change point: a level
	// is only a level over several runs, and one outlier is not one.
	MinRuns int
	// Floor is the least spread assumed of a level (on the logarithm for a
	// relative figure, as a fraction for errors): runs repeating the same
	// number exactly would otherwise make any step "significant".
	Floor float64
	// Interval is the confidence of a step's interval.
	Interval float64
	// Robust leaves each side's outliers out of the t-test (see trim).
	Robust bool
	// Held asks that MinRuns runs of each side hold its level (see held).
	Held bool
	// FixedLevel, when above 0, is every t-test's level, uncorrected for
	// splits and series: Hunter's as published (0.001), measured beside
	// the default in docs/history.md.
	FixedLevel float64
	// NewestAlpha is the few-runs rule's one-sided level (NewestOutrun),
	// shared over the series judged: a false alarm each time the gate
	// judges so; 0 is Alpha/10.
	NewestAlpha float64
}

// DefaultMethod is the method history uses; docs/history.md gives its
// error rates as bench/history measures them.
var DefaultMethod = Method{Alpha: 0.05, MinRuns: 3, Floor: 0.01, Interval: 0.95, Robust: true, Held: true, NewestAlpha: 0.005}

// Step is a change of level found in a series of values.
type Step struct {
	At             int     // index of the first value of the new level
	From, To       int     // the compared levels: values [From, At) and [At, To)
	Before, After  float64 // each level's mean, in the figure's unit
	Change, Lo, Hi float64 // the step and its interval: a ratio − 1 when relative, a difference otherwise
	T              float64 // the t statistic (After − Before)
}

// Detect returns the change points of xs, in order. A relative series is
// judged on its logarithm: values ≤ 0 are then taken as missing and count
// for no level (a run without requests on the endpoint).
func (m Method) Detect(xs []float64, relative bool) []Step {
	ys, idx := transform(xs, relative)
	cps := m.split(ys, 0, len(ys), nil)
	sort.Ints(cps)
	cps = m.prune(ys, cps)
	steps := make([]Step, 0, len(cps))
	for i, c := range cps {
		from, to := neighbours(cps, i, len(ys))
		s := m.step(ys, from, c, to, relative)
		s.At, s.From, s.To = idx[c], idx[from], to
		if to < len(idx) {
			s.To = idx[to]
		} else {
			s.To = len(xs)
		}
		steps = append(steps, s)
	}
	return steps
}

// transform keeps the usable values (their logarithm when relative) and
// where each came from.
func transform(xs []float64, relative bool) (ys []float64, idx []int) {
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) || relative && x <= 0 {
			continue
		}
		if relative {
			x = math.Log(x)
		}
		ys, idx = append(ys, x), append(idx, i)
	}
	return ys, idx
}

// split proposes E-Divisive's best split of ys[a:b] and keeps it, then the
// splits of both sides, when the t-test finds the two sides different.
// Recursion depth is bounded by len(ys)/MinRuns.
func (m Method) split(ys []float64, a, b int, out []int) []int {
	if b-a < 2*m.MinRuns {
		return out
	}
	tau := EDivisive(ys[a:b], m.MinRuns)
	if tau < 0 {
		return out
	}
	if m.Held {
		tau = m.edge(ys[a:b], tau) // where the level changed, past a blip
	}
	ok := tau >= m.MinRuns && b-a-tau >= m.MinRuns // else it changed too near an end to be judged yet
	if ok {
		_, ok = m.judge(ys[a:a+tau], ys[a+tau:b], m.Level(b-a))
	}
	if !ok {
		// a level that returned (a regression, then its fix): its first edge against the returned level's start
		level := m.bumpLevel(b - a)
		bt, bk := EDivisiveBump(ys[a:b], m.MinRuns)
		if bt < 0 || level == 0 {
			return out
		}
		if _, ok := m.judge(ys[a:a+bt], ys[a+bt:a+bk], level); !ok {
			return out
		}
		if _, ok := m.judge(ys[a+bt:a+bk], ys[a+bk:b], level); !ok {
			return out // a bump has two edges; one alone is the plain split's to find
		}
		tau = bt
	}
	out = append(out, a+tau)
	out = m.split(ys, a, a+tau, out)
	return m.split(ys, a+tau, b, out)
}

// prune tests each change point between its neighbours and drops the
// weakest that fails, until every one passes (Hunter's second pass: a
// split accepted within a wide segment may not hold between its neighbours).
func (m Method) prune(ys []float64, cps []int) []int {
	for len(cps) > 0 {
		weakest, weakT := -1, math.Inf(1)
		for i, c := range cps {
			from, to := neighbours(cps, i, len(ys))
			if t, ok := m.judge(ys[from:c], ys[c:to], m.Level(to-from)); !ok && math.Abs(t) < weakT {
				weakest, weakT = i, math.Abs(t)
			}
		}
		if weakest < 0 {
			return cps
		}
		cps = append(cps[:weakest], cps[weakest+1:]...)
	}
	return cps
}

// neighbours returns the segment change point cps[i] splits, in a series
// of n values: from the change point before it (or the start) to the one
// after it (or the end).
func neighbours(cps []int, i, n int) (from, to int) {
	from, to = 0, n
	if i > 0 {
		from = cps[i-1]
	}
	if i+1 < len(cps) {
		to = cps[i+1]
	}
	return from, to
}

// judge returns the t statistic between the levels l and r and whether
// they are two levels: t significant at level, and each held when Held.
func (m Method) judge(l, r []float64, level float64) (t float64, change bool) {
	t, df := m.tStat(l, r)
	return t, m.passes(t, df, level) && (!m.Held || m.held(l, r))
}

// passes reports whether t is significant at the two-sided level.
func (m Method) passes(t, df, level float64) bool {
	if df < 1 {
		return false
	}
	return math.Abs(t) > compare.StudentTQuantile(1-level/2, df)
}

// Level is the two-sided significance of the t-test of a split of a
// segment of n runs: half of Alpha over the Family series and the
// segment's n − 2·MinRuns + 1 candidate splits (the other half is the
// bump's, see bumpLevel). At a fixed 0.001, the best of the 95 splits of
// 100 stable runs passed in 3 to 4 % of series, and every series of a
// test added its own chance (docs/history.md).
func (m Method) Level(n int) float64 {
	if m.FixedLevel > 0 {
		return m.FixedLevel
	}
	splits := max(n-2*m.MinRuns+1, 1)
	return m.Alpha / 2 / float64(max(m.Family, 1)*splits)
}

// bumpLevel is the t-test's level for a split whose right side ends before
// the segment does (EDivisiveBump): the other half of Alpha over the
// Family series and the segment's (n − 2·MinRuns)(n − 2·MinRuns + 1)/2
// candidate pairs of a split and an end. 0 (no bump is tried) at a
// FixedLevel: Hunter as published has no such split.
func (m Method) bumpLevel(n int) float64 {
	if m.FixedLevel > 0 {
		return 0
	}
	k := max(n-2*m.MinRuns, 1)
	return m.Alpha / 2 / float64(max(m.Family, 1)*k*(k+1)/2)
}

// Among returns the method for one of family series examined together.
func (m Method) Among(family int) Method {
	m.Family = family
	return m
}

// tStat is Student's pooled two-sample t (as scipy's ttest_ind, which
// Hunter calls) on each side without its outliers, with the spread
// floored at Floor.
func (m Method) tStat(l, r []float64) (t, df float64) {
	l, r = m.trim(l), m.trim(r)
	ml, vl := meanVar(l)
	mr, vr := meanVar(r)
	nl, nr := float64(len(l)), float64(len(r))
	df = nl + nr - 2
	if df < 1 {
		return 0, df
	}
	sp := math.Sqrt(((nl-1)*vl + (nr-1)*vr) / df)
	sp = max(sp, m.Floor)
	return (mr - ml) / (sp * math.Sqrt(1/nl+1/nr)), df
}

// step measures the change at c between the levels [from, c) and [c, to).
func (m Method) step(ys []float64, from, c, to int, relative bool) Step {
	l, r := m.trim(ys[from:c]), m.trim(ys[c:to])
	ml, vl := meanVar(l)
	mr, vr := meanVar(r)
	nl, nr := float64(len(l)), float64(len(r))
	df := nl + nr - 2
	sp := max(math.Sqrt(((nl-1)*vl+(nr-1)*vr)/df), m.Floor)
	half := compare.StudentTQuantile(1-(1-m.Interval)/2, df) * sp * math.Sqrt(1/nl+1/nr)
	d := mr - ml
	s := Step{T: d / (sp * math.Sqrt(1/nl+1/nr)), Before: ml, After: mr, Change: d, Lo: d - half, Hi: d + half}
	if relative {
		s.Before, s.After = math.Exp(ml), math.Exp(mr)
		s.Change, s.Lo, s.Hi = math.Expm1(d), math.Expm1(d-half), math.Expm1(d+half)
	}
	return s
}

// outlierMADs is how far from a level's median, in robust standard
// deviations (1.4826 × the median absolute deviation, at least Floor), a
// run is an outlier: one run slowed by a noisy neighbour moves a mean and
// a variance enough to hide a step or make one, and is no level itself.
const outlierMADs = 5

// trim returns xs without its outliers. This departs from Hunter, whose
// t-test takes every run; bench/history measures both ways.
func (m Method) trim(xs []float64) []float64 {
	if !m.Robust || len(xs) < 3 {
		return xs
	}
	med, limit := m.spread(xs)
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if math.Abs(x-med) <= limit {
			out = append(out, x)
		}
	}
	return out
}

// spread returns the median of xs and how far from it a value is an
// outlier: outlierMADs robust standard deviations, at least Floor's.
func (m Method) spread(xs []float64) (med, limit float64) {
	med = stats.Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - med)
	}
	return med, outlierMADs * max(1.4826*stats.Median(dev), m.Floor)
}

func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(xs)-1)
}

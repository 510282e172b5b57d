package compare

import (
	"cmp"
	"math"
	"slices"
)

// The ranks' bound: a latency percentile's change that the requests' ranks
// decide is decided, however wide the bootstrap's or the tail test's
// interval. The s35 trial's B was 8 ms slower in every request (its
// minimum, 8.38 ms, above A's p99 of 7.38 ms) and one second of B stalled
// at 600 ms; that second made B's own percentile so uncertain that the
// joined interval read p99 +7,509 % [-58.1 %, +15,552 %] and the gate
// 'p(99) +10%' passed. The worse B got, the surer it passed.
//
// The test needs no estimate of B's percentile: at A's percentile q_A
// scaled by a ratio ρ, B's share of requests below it must be under p,
// significantly, for q_B > ρ·q_A. Each share's spread is its run's
// seconds as blocks (batch means, as the tail test's); A's percentile's
// own uncertainty enters as A's share spread at q_A times how much denser
// B's requests are there than A's (never less than once: equal runs
// give the two-sample test at a point). The bound is the largest ρ the
// test holds for, walked up from 1. B's share is also tested without up
// to rankTrim of its seconds with the least below the point: the seconds
// left hold more of B below it, never less, so this only asks more of B,
// and a lone stalled second, which widens B's spread, cannot make B's
// regression less sure than it is without it. The tries share the level
// (Bonferroni): one server's runs, one of them with a pause, are called
// changed no more often than by the test alone.

// rankTrim is the most of a run's slowest seconds the ranks' bound tries
// leaving out (at most a quarter of its seconds): one, a lone stall, as
// each try more costs every try its share of the level.
const rankTrim = 1

// rankStep is the bound's resolution in grid steps (1 % each).
const rankStep = 1.0

// rankLowerBound returns a lower bound of the log ratio of run b's
// percentile m to run a's from the requests' ranks, and whether the ranks
// put b's percentile above a's at all (the bound is then ≥ 0).
func rankLowerBound(a, b *rowSeconds, ra, rb *resampled, m Metric, alpha float64) (float64, bool) {
	need := batchNeed(m)
	if latencyCount(a) < need || latencyCount(b) < need {
		return 0, false
	}
	p := m.percentile() / 100
	ta, tb := newTailSeconds(a, ra.block, ra.inflate), newTailSeconds(b, rb.block, rb.inflate)
	qa := ta.at(p)
	sa, dfa := ta.shareSE(qa, p)
	h := max(1, (ta.at(p+sa)-ta.at(p-sa))/2) // grid steps: A's percentile's own spread
	fa := (ta.below(qa+h) - ta.below(qa-h)) / ta.total
	above := func(rho float64) bool { // q_B > e^(rho·gridStep)·q_A
		u := qa + rho
		ratio := 1.0
		if fb := (tb.below(u+h) - tb.below(u-h)) / tb.total; fa > 0 {
			ratio = max(1, fb/fa)
		}
		return tb.fewerBelow(u, p, alpha/2, ratio*sa, dfa)
	}
	if !above(0) {
		return 0, false
	}
	rho, top := 0.0, float64(tb.lo)+float64(len(tb.cum)-1)
	for range len(tb.cum) + 1 { // one grid step a turn: bounded by the grid
		if qa+rho+rankStep > top || !above(rho+rankStep) {
			break
		}
		rho += rankStep
	}
	return rho * gridStep, true
}

// fewerBelow reports whether fewer than share p of the run's requests lie
// below grid position u at one-sided level alpha, an other spread sx (df
// dfx) added to the share's own: over all its seconds, or without up to
// rankTrim of those with the least below u.
func (t *tailSeconds) fewerBelow(u, p, alpha, sx, dfx float64) bool {
	n := len(t.secs)
	z := make([]float64, n)
	for i := range z {
		z[i] = t.secBelow(i, u)
	}
	order := make([]int, n) // seconds by their share below u, least first
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmpShare(z[i], t.m[i], z[j], t.m[j])
	})
	drop := make([]bool, n)
	trims := min(rankTrim, n/4)
	alpha /= float64(trims + 1) // Bonferroni over the tries
	for k := 0; k <= trims; k++ {
		if k > 0 {
			drop[order[k-1]] = true
		}
		var zs, ms []float64
		var y, total float64
		for i := range z {
			if !drop[i] && t.m[i] > 0 {
				zs, ms = append(zs, z[i]), append(ms, t.m[i])
				y, total = y+z[i], total+t.m[i]
			}
		}
		if len(zs) < minSeconds || total <= 0 {
			return false
		}
		se, df := t.batchSE(zs, ms, p)
		if y/total+StudentTQuantile(1-alpha, welchDF(se*se, df, sx*sx, dfx))*math.Hypot(se, sx) < p {
			return true
		}
	}
	return false
}

// welchDF is Welch–Satterthwaite's degrees of freedom of a sum of two
// variances with theirs (+Inf for a known one), capped for the t table.
func welchDF(v1, df1, v2, df2 float64) float64 {
	if v1+v2 <= 0 {
		return 1e9
	}
	return min(1e9, (v1+v2)*(v1+v2)/(v1*v1/df1+v2*v2/df2))
}

// cmpShare orders two seconds by their share of requests below a point
// (x of n), a second without requests last.
func cmpShare(x1, n1, x2, n2 float64) int {
	switch {
	case n1 <= 0 && n2 <= 0:
		return 0
	case n1 <= 0:
		return 1
	case n2 <= 0:
		return -1
	}
	s1, s2 := x1/n1, x2/n2
	switch {
	case s1 < s2:
		return -1
	case s1 > s2:
		return 1
	}
	return 0
}

// rankBounds narrows a latency change's interval (log ratio lo, hi) to
// what the ranks decide, both ways; decided is +1 when the ranks put b's
// percentile above a's, -1 below, 0 when they decide neither.
func rankBounds(a, b *rowSeconds, ra, rb *resampled, m Metric, alpha, lo, hi float64) (nlo, nhi float64, decided int) {
	if up, ok := rankLowerBound(a, b, ra, rb, m, alpha); ok {
		lo, decided = max(lo, up), 1
	} else if down, ok := rankLowerBound(b, a, rb, ra, m, alpha); ok {
		hi, decided = min(hi, -down), -1
	}
	return lo, max(hi, lo), decided
}

// groupRankBounds keeps a latency change's interval between groups of
// runs (log ratio lo, hi, Welch's over the runs' figures) to what their
// requests allow: never past the slowest request of B over the fastest of
// A, nor below the fastest of B over the slowest of A. Welch's t over 3
// runs against 2 whose p95s differed sixfold read p95 +1,069 % [-99.9 %,
// +13,510,934 %]. The ranks' bound is not used here: runs of one build
// differ as a whole (pooled, 3 against 3 runs 15 % apart were called
// changed 4 times in 40), which only the runs' own spread sees.
func (c *comparer) groupRankBounds(g, r int, m Metric, lo, hi float64) (float64, float64) {
	var as, bs []*runView
	for k, grp := range []int{0, g} {
		for _, i := range c.groups[grp].Runs {
			v := c.views[i]
			if v.rows[r] == nil || !v.rows[r].hasLat || len(v.rows[r].secs) < minSeconds {
				return lo, hi // a run without per-second durations: nothing to bound
			}
			if k == 0 {
				as = append(as, v)
			} else {
				bs = append(bs, v)
			}
		}
	}
	aLo, aHi := gridRange(as, r)
	bLo, bHi := gridRange(bs, r)
	lo, hi = max(lo, (bLo-aHi)*gridStep), min(hi, (bHi-aLo)*gridStep)
	return lo, max(hi, lo)
}

// gridRange is the least and the most grid position of the runs' requests
// in row r: the fastest request's bucket and the top of the slowest's.
func gridRange(vs []*runView, r int) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		rs := v.rows[r]
		lo, hi = min(lo, float64(rs.lo)), max(hi, float64(rs.hi)+1)
	}
	return lo, hi
}

// healSlowest is a row's seconds with the one holding the largest share
// of its requests beyond the row's percentile m replaced by a copy of its
// median second by that share: the run as it would be without its
// slowest second, holding as many seconds (and stretches).
func healSlowest(rs *rowSeconds, m Metric) *rowSeconds {
	if len(rs.secs) < minSeconds {
		return rs
	}
	t := newTailSeconds(rs, 1, 1)
	q := t.at(m.percentile() / 100)
	var order []int
	beyond := make([]float64, len(t.secs))
	for i := range t.secs {
		if t.m[i] > 0 {
			order, beyond[i] = append(order, i), 1-t.secBelow(i, q)/t.m[i]
		}
	}
	if len(order) < minSeconds {
		return rs
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(beyond[i], beyond[j]) })
	out := *rs
	out.secs = slices.Clone(rs.secs)
	out.secs[order[len(order)-1]] = rs.secs[order[len(order)/2]]
	return &out
}

package compare

import (
	"fmt"
	"math"
	"sort"

	"github.com/loadlens/loadlens/internal/units"
)

// The tail test: a latency percentile's change judged on the requests'
// ranks, the seconds as blocks. Each run's p-quantile q has p of its
// requests below it; the share above any duration u is a mean over the
// run's seconds (requests above u over requests), whose variance the
// seconds themselves give: overlapping batch means of L seconds of each
// second's excess over that share, so that seconds sharing a slow patch,
// or one stalled second, count as the one observation they are. Never
// below a binomial's: requests do not make each other faster. Woodruff's
// interval for q is the durations whose share below lies p ± t·se away
// (the run's own requests, so its ends stay within what the run
// recorded); the change's interval joins the two runs' by MOVER (Zou and
// Donner 2008), with Student's t at the runs' degrees of freedom combined
// by Welch–Satterthwaite. It needs no stretch to hold a percentile's worth
// of requests, only each run to hold tailRequests beyond its percentile:
// a p95 over 350 requests whose every request of B is slower than every
// one of A is a change this test sees.

// tailSeconds is one row's compared seconds of one run laid out for the
// tail test: each second's grid buckets with their running counts, and
// the run's whole grid as one dense running count.
type tailSeconds struct {
	secs    [][]latBucket
	pre     [][]float64 // pre[i][k]: second i's requests in its buckets before the k-th
	m       []float64   // requests with a duration, per second
	total   float64
	lo      int32
	cum     []float64 // cum[k]: requests in grid buckets below lo+k
	block   int       // batch length in seconds
	inflate float64   // the block length's bias inflation (see rowSeconds.blockLength)
}

// newTailSeconds lays out a row's seconds for the tail test.
func newTailSeconds(rs *rowSeconds, block int, inflate float64) *tailSeconds {
	t := &tailSeconds{lo: rs.lo, block: max(block, 1), inflate: max(inflate, 1)}
	counts := make([]float64, rs.hi-rs.lo+1)
	for _, s := range rs.secs {
		pre := make([]float64, len(s.lat)+1)
		for k, b := range s.lat {
			pre[k+1] = pre[k] + float64(b.n)
			counts[b.idx-rs.lo] += float64(b.n)
		}
		t.secs, t.pre = append(t.secs, s.lat), append(t.pre, pre)
		t.m = append(t.m, pre[len(s.lat)])
		t.total += pre[len(s.lat)]
	}
	t.cum = make([]float64, len(counts)+1)
	for k, c := range counts {
		t.cum[k+1] = t.cum[k] + c
	}
	return t
}

// below counts the run's requests below grid position u (in grid steps),
// interpolating inside a bucket as the figures do.
func (t *tailSeconds) below(u float64) float64 {
	x := u - float64(t.lo)
	switch {
	case x <= 0:
		return 0
	case x >= float64(len(t.cum)-1):
		return t.total
	}
	k := int(x)
	return t.cum[k] + (x-float64(k))*(t.cum[k+1]-t.cum[k])
}

// secBelow counts second i's requests below grid position u.
func (t *tailSeconds) secBelow(i int, u float64) float64 {
	lat, pre := t.secs[i], t.pre[i]
	j := int32(math.Floor(u))
	k := sort.Search(len(lat), func(k int) bool { return lat[k].idx >= j })
	n := pre[k]
	if k < len(lat) && lat[k].idx == j {
		n += (u - float64(j)) * float64(lat[k].n)
	}
	return n
}

// at returns the grid position below which share of the run's requests
// lie: its quantile, within the run's requests.
func (t *tailSeconds) at(share float64) float64 {
	lo, hi := float64(t.lo), float64(t.lo)+float64(len(t.cum)-1)
	share = min(max(share, 0), 1)
	for range 50 { // bisection: 50 halvings of a few thousand grid steps
		mid := (lo + hi) / 2
		if t.below(mid) < share*t.total {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// shareSE returns the standard error of the run's share of requests below
// grid position u and its degrees of freedom (+Inf when the binomial
// floor of share p holds): overlapping batch means (Meketon and Schmeiser)
// of L seconds of each second's excess over the share, times the run's
// inflation.
func (t *tailSeconds) shareSE(u, p float64) (se, df float64) {
	z := make([]float64, len(t.secs))
	for i := range z {
		z[i] = t.secBelow(i, u)
	}
	return t.batchSE(z, t.m, p)
}

// batchSE is shareSE over the seconds whose requests below u are z and
// whose requests are m (a run's, or some of them in their order).
func (t *tailSeconds) batchSE(z, m []float64, p float64) (se, df float64) {
	n := len(z)
	var y, total float64
	for i := range z {
		y, total = y+z[i], total+m[i]
	}
	if n < 2 || total <= 0 {
		return 1, 1
	}
	share := y / total
	r := make([]float64, n)
	for i := range z {
		r[i] = z[i] - share*m[i] // the ratio estimator's residual: they sum to 0
	}
	L := min(t.block, max(1, n-1))
	var ss, win float64
	for i := range L {
		win += r[i]
	}
	for j := 0; j+L <= n; j++ {
		if j > 0 {
			win += r[j+L-1] - r[j-1]
		}
		ss += (win / float64(L)) * (win / float64(L))
	}
	lrv := float64(n*L) / float64((n-L+1)*(n-L)) * ss // a second's long-run variance
	v := t.inflate * float64(n) * lrv / (total * total)
	if floor := p * (1 - p) / total; v <= floor {
		return math.Sqrt(floor), math.Inf(1)
	}
	return math.Sqrt(v), max(1, min(float64(n-1), 1.5*(float64(n)/float64(L)-1)))
}

// tailOffsets runs the tail test of latency metric m between two runs'
// rows and returns its interval of the log ratio as offsets from the
// change, or why there is none.
func tailOffsets(a, b *rowSeconds, ra, rb *resampled, m Metric, alpha float64) (lo, hi float64, why string) {
	need := batchNeed(m)
	for _, rs := range []*rowSeconds{a, b} {
		if n := latencyCount(rs); n < need {
			return 0, 0, fmt.Sprintf("needs %s a run (%d beyond its %s); one holds %s",
				units.CountOf(need, "request", "requests"), tailRequests, m, units.Count(n))
		}
	}
	p := m.percentile() / 100
	ta, tb := newTailSeconds(a, ra.block, ra.inflate), newTailSeconds(b, rb.block, rb.inflate)
	qa, qb := ta.at(p), tb.at(p)
	sa, dfa := ta.shareSE(qa, p)
	sb, dfb := tb.shareSE(qb, p)
	// Welch–Satterthwaite on the log scale: each run's share se turned
	// into the log quantile's by the slope of its own quantile function.
	la, lb := (ta.at(p+sa)-ta.at(p-sa))/2, (tb.at(p+sb)-tb.at(p-sb))/2
	df := math.Inf(1)
	if va, vb := la*la, lb*lb; va+vb > 0 {
		df = (va + vb) * (va + vb) / (va*va/dfa + vb*vb/dfb)
	}
	tq := StudentTQuantile(1-alpha/2, min(df, 1e9))
	// MOVER: the change's ends from the runs' own Woodruff intervals.
	lo = -math.Hypot(qb-tb.at(p-tq*sb), ta.at(p+tq*sa)-qa) * gridStep
	hi = math.Hypot(tb.at(p+tq*sb)-qb, qa-ta.at(p-tq*sa)) * gridStep
	return lo, hi, ""
}

// latencyCount is how many requests of a row have a duration.
func latencyCount(rs *rowSeconds) int64 {
	var n int64
	for _, s := range rs.secs {
		for _, b := range s.lat {
			n += int64(b.n)
		}
	}
	return n
}

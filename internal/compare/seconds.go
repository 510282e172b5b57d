package compare

import (
	"math"
	"slices"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
)

// gridStep is the width of the resampling grid's latency buckets in natural
// log units: about 1 %. Quantiles interpolate inside a bucket, so resampled
// percentiles move smoothly; the figures shown come from the exact
// histograms, the grid only sets the width of the intervals.
const gridStep = 0.01

// latBucket is one populated bucket of a second's latency grid.
type latBucket struct {
	idx int32  // ⌊ln(µs)/gridStep⌋
	n   uint32 // requests in it
}

// second is what one row (an endpoint, or all of them) of one run did in
// one compared second.
type second struct {
	reqs, failed   int64
	passes, fails  int64
	lat            []latBucket // ascending idx; nil without per-second histograms
	p50, p95, p99  float64     // the second's own percentiles in ms, for the block length
	hasPercentiles bool
}

// rowSeconds is one row's compared seconds of one run, ready to resample.
type rowSeconds struct {
	secs   []second
	lo, hi int32 // the grid's index range over every second
	hasLat bool  // per-second histograms were read
	hasChk bool  // per-second check outcomes were read
}

// gridIndex places a duration on the grid.
func gridIndex(d time.Duration) int32 {
	us := max(float64(d)/float64(time.Microsecond), 1)
	return int32(math.Floor(math.Log(us) / gridStep))
}

// addHist adds a histogram's buckets to a second's latency grid (unsorted).
func addHist(lat []latBucket, h *metrics.Hist) []latBucket {
	h.Buckets(func(low time.Duration, n int64) {
		lat = append(lat, latBucket{idx: gridIndex(low), n: uint32(n)})
	})
	return lat
}

// compact sorts a latency grid and merges buckets with the same index.
func compact(lat []latBucket) []latBucket {
	slices.SortFunc(lat, func(a, b latBucket) int { return int(a.idx - b.idx) })
	out := lat[:0]
	for _, b := range lat {
		if len(out) > 0 && out[len(out)-1].idx == b.idx {
			out[len(out)-1].n += b.n
			continue
		}
		out = append(out, b)
	}
	return out
}

// finish sets the grid's range and each second's own percentiles.
func (rs *rowSeconds) finish() {
	rs.lo, rs.hi = math.MaxInt32, math.MinInt32
	for i := range rs.secs {
		s := &rs.secs[i]
		if len(s.lat) == 0 {
			continue
		}
		rs.lo, rs.hi = min(rs.lo, s.lat[0].idx), max(rs.hi, s.lat[len(s.lat)-1].idx)
	}
	if rs.lo > rs.hi {
		rs.lo, rs.hi = 0, 0
	}
	acc := make([]int64, rs.hi-rs.lo+1)
	for i := range rs.secs {
		s := &rs.secs[i]
		if len(s.lat) == 0 {
			continue
		}
		clear(acc)
		var total int64
		for _, b := range s.lat {
			acc[b.idx-rs.lo] += int64(b.n)
			total += int64(b.n)
		}
		q := gridQuantiles(acc, rs.lo, total)
		s.p50, s.p95, s.p99, s.hasPercentiles = q[0], q[1], q[2], true
	}
}

// packed is a list of items — seconds, or blocks of consecutive seconds —
// laid out for fast summing: each item's counts, and its latency grid
// (idx, n from off[i] to off[i+1]).
type packed struct {
	reqs, failed, passes, fails []int64
	off                         []int32
	idx                         []int32 // grid index minus the row's lo
	n                           []uint32
}

// packSeconds lays out the seconds of a row, one item each.
func (rs *rowSeconds) packSeconds() *packed {
	return rs.packBlocks(1)
}

// packBlocks lays out every circular block of L consecutive seconds, the
// i-th starting at second i: a window that slides one second at a time,
// adding the second that enters and taking away the one that leaves.
func (rs *rowSeconds) packBlocks(L int) *packed {
	n := len(rs.secs)
	p := &packed{off: []int32{0}}
	acc := make([]int64, rs.hi-rs.lo+1)
	var t sums
	move := func(i int, sign int64) {
		s := &rs.secs[i%n]
		t.reqs += sign * s.reqs
		t.failed += sign * s.failed
		t.passes += sign * s.passes
		t.fails += sign * s.fails
		for _, b := range s.lat {
			acc[b.idx-rs.lo] += sign * int64(b.n)
		}
	}
	for k := range L {
		move(k, 1)
	}
	for i := range n {
		if i > 0 {
			move(i-1, -1)
			move(i-1+L, 1)
		}
		for j, c := range acc {
			if c > 0 {
				p.idx = append(p.idx, int32(j))
				p.n = append(p.n, uint32(c))
			}
		}
		p.reqs, p.failed = append(p.reqs, t.reqs), append(p.failed, t.failed)
		p.passes, p.fails = append(p.passes, t.passes), append(p.fails, t.fails)
		p.off = append(p.off, int32(len(p.idx)))
	}
	return p
}

// sums adds up items of a packed list: counts, and the latency grid into acc.
type sums struct {
	reqs, failed, passes, fails int64
}

func (p *packed) add(i int, acc []int64, t *sums) {
	t.reqs += p.reqs[i]
	t.failed += p.failed[i]
	t.passes += p.passes[i]
	t.fails += p.fails[i]
	idx, n := p.idx[p.off[i]:p.off[i+1]], p.n[p.off[i]:p.off[i+1]]
	for k, j := range idx {
		acc[j] += int64(n[k])
	}
}

// figures turns sums over seconds seconds into every figure: NaN where a
// figure is undefined (no requests, no checks, no histograms).
func (rs *rowSeconds) figures(t sums, seconds int, acc []int64) [numMetrics]float64 {
	var out [numMetrics]float64
	nan := math.NaN()
	out[TPS] = float64(t.reqs) / float64(max(seconds, 1))
	out[Succeeded] = float64(t.reqs-t.failed) / float64(max(seconds, 1))
	out[P50], out[P95], out[P99], out[ErrorRate], out[CheckRate] = nan, nan, nan, nan, nan
	if t.reqs > 0 {
		out[ErrorRate] = float64(t.failed) / float64(t.reqs)
	}
	if rs.hasLat {
		var total int64
		for _, c := range acc {
			total += c
		}
		if total > 0 {
			q := gridQuantiles(acc, rs.lo, total)
			out[P50], out[P95], out[P99] = q[0], q[1], q[2]
		}
	}
	if rs.hasChk && t.passes+t.fails > 0 {
		out[CheckRate] = float64(t.passes) / float64(t.passes+t.fails)
	}
	return out
}

// stats computes every figure over the seconds idx (repeats allowed).
func (rs *rowSeconds) stats(secs *packed, idx []int, acc []int64) [numMetrics]float64 {
	clear(acc)
	var t sums
	for _, i := range idx {
		secs.add(i, acc, &t)
	}
	return rs.figures(t, len(idx), acc)
}

// gridQuantiles returns p50, p95 and p99 in milliseconds of a dense grid
// starting at index lo, interpolating log-linearly inside a bucket.
func gridQuantiles(acc []int64, lo int32, total int64) [3]float64 {
	qs := [3]float64{50, 95, 99}
	var out [3]float64
	var cum int64
	k := 0
	for j, c := range acc {
		if c == 0 {
			continue
		}
		for k < len(qs) && float64(cum+c) >= qs[k]/100*float64(total) {
			f := (qs[k]/100*float64(total) - float64(cum)) / float64(c)
			out[k] = math.Exp((float64(lo)+float64(j)+f)*gridStep) / 1000
			k++
		}
		cum += c
		if k == len(qs) {
			break
		}
	}
	return out
}

// blockLength chooses the block length of a row's seconds: the longest
// that BlockLength gives for any of its per-second series, so that the
// slowest dependence (a pause that lasts, a slow drift of latency) is kept
// inside blocks, and at least twice the largest bias constant c and √n,
// where the correction below is least sensitive to a misjudged c. It
// returns the variance inflation that undoes the bootstrap's first-order
// bias at that length too: the block bootstrap's variance of a mean is
// σ²·(1 − c/L − L/n) to first order (blocks too short for the dependence,
// and the autocovariances' centring on the sample mean), so the
// inflation is 1/(1 − c/L − L/n), at most 3. c is never taken below the
// dependence a run of n seconds cannot show (unseenDependence).
func (rs *rowSeconds) blockLength() (int, float64) {
	n := len(rs.secs)
	series := make([][]float64, 6)
	for _, s := range rs.secs {
		series[0] = append(series[0], float64(s.reqs))
		series[1] = append(series[1], float64(s.failed))
		series[2] = append(series[2], float64(s.fails))
		if s.hasPercentiles {
			series[3] = append(series[3], s.p50)
			series[4] = append(series[4], s.p95)
			series[5] = append(series[5], s.p99)
		}
	}
	b, c := 1, 0.0
	for _, x := range series {
		bx, cx := blockLength(x)
		b, c = max(b, bx), max(c, cx)
	}
	c = max(c, unseenDependence(n))
	b = min(max(b, int(math.Ceil(2*c)), int(math.Ceil(math.Sqrt(float64(n))))), max(1, n/3))
	keep := 1 - c/float64(b) - float64(b)/float64(n)
	return b, 1 / max(keep, 1.0/3)
}

// seed hashes a row's seconds (FNV-1a over their counts and percentiles)
// into a resampling seed that follows the run wherever it is given.
func (rs *rowSeconds) seed() uint64 {
	h := uint64(14695981039346656037)
	mix := func(x uint64) {
		for range 8 {
			h = (h ^ (x & 0xff)) * 1099511628211
			x >>= 8
		}
	}
	for _, s := range rs.secs {
		mix(uint64(s.reqs))
		mix(uint64(s.failed))
		mix(uint64(s.fails))
		mix(math.Float64bits(s.p50))
		mix(math.Float64bits(s.p99))
	}
	return h >> 8
}

// unseenDependence is the bias constant c = 2ρ/(1 − ρ²) of seconds that
// depend on the last as an AR(1) at ρ, the largest autocorrelation the
// block rule calls insignificant in n seconds (2·√(log10(n)/n)): 0.62 in
// 11 s. Dependence that short a run cannot show is not shown absent, and
// a c taken from it alone left the intervals of one server's 11 s runs
// at half their true variance (p50 excluding 0 in 15 % of pairs).
func unseenDependence(n int) float64 {
	if n < 6 {
		return 0
	}
	cv := min(0.9, 2*math.Sqrt(math.Log10(float64(n))/float64(n)))
	return 2 * cv / (1 - cv*cv)
}

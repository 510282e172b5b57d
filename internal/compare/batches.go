package compare

import (
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/units"
)

// minBatches is the fewest stretches a run's seconds must make for a figure
// to be judged: with fewer, the spread between them says nothing.
const minBatches = 3

// tailRequests is how many requests beyond a percentile each stretch must
// hold: a p99 over 300 requests is the third-largest one, which a single
// stalled second decides.
const tailRequests = 10

// batchNeed is the fewest requests a stretch needs for metric m.
func batchNeed(m Metric) int64 {
	switch m {
	case P50:
		return tailRequests * 2
	case P95:
		return tailRequests * 20
	case P99:
		return tailRequests * 100
	}
	return 1
}

// batches cuts a row's seconds into consecutive stretches of at least L
// seconds and need requests each (the remainder joins the last one) and
// returns metric m over each: the batch means of simulation output
// analysis, nearly independent when L covers the seconds' dependence.
func batches(rs *rowSeconds, L int, need int64, m Metric) []float64 {
	secs := rs.packSeconds()
	acc := make([]int64, rs.hi-rs.lo+1)
	var out []float64
	var cur, last []int
	var reqs int64
	for i, s := range rs.secs {
		cur = append(cur, i)
		reqs += s.reqs
		if len(cur) >= L && reqs >= need {
			out = append(out, rs.stats(secs, cur, acc)[m])
			last, cur, reqs = cur, nil, 0
		}
	}
	if len(cur) > 0 && len(out) > 0 {
		out[len(out)-1] = rs.stats(secs, append(last, cur...), acc)[m]
	}
	return out
}

// spreadNoise is the noise floor of a change of metric m between two single
// runs, from their own second-to-second spread: Welch's t half-width over
// the two runs' stretches (log figures for req/s and latencies), in the
// unit MinEffect uses (percent, or a ratio). A change smaller than it is
// one a run's own stretches differ by, which a rerun could too: an outlier
// second, a warm-up second, a GC pause. It returns a reason instead when a
// run has fewer than minBatches stretches of enough requests.
func spreadNoise(a, b *rowSeconds, L int, m Metric, alpha float64) (float64, string) {
	need := batchNeed(m)
	xa, xb := batches(a, L, need, m), batches(b, L, need, m)
	if len(xa) < minBatches || len(xb) < minBatches {
		return 0, fmt.Sprintf("needs %d stretches of %d+ s holding %s each", minBatches, L,
			units.CountOf(need, "request", "requests"))
	}
	rel := !m.isRatio()
	for _, x := range append(append([]float64(nil), xa...), xb...) {
		if math.IsNaN(x) || rel && x <= 0 {
			return 0, "too few requests in a stretch of seconds"
		}
	}
	if rel {
		xa, xb = logs(xa), logs(xb)
	}
	na, nb := float64(len(xa)), float64(len(xb))
	va, vb := variance(xa)/na, variance(xb)/nb
	if va+vb <= 0 {
		return 0, ""
	}
	df := (va + vb) * (va + vb) / (va*va/(na-1) + vb*vb/(nb-1))
	half := StudentTQuantile(1-alpha/2, df) * math.Sqrt(va+vb)
	if rel {
		return 100 * math.Expm1(half), ""
	}
	return half, ""
}

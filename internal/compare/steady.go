package compare

import (
	"math"
	"sort"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/stats"
)

// minSteady is the shortest stretch of seconds the data may call steady.
const minSteady = 5

// loadSlack is the absolute wiggle, in requests or VUs per second, that a
// steady load may have on top of the relative tolerance: at 10 req/s one
// request landing in the next second is already 10 %.
const loadSlack = 2

// smoothWidth is the width of the running median that smooths a load
// series before segmenting: wide enough that a saturated server's
// completions, which swing by a third from second to second, read as the
// level they swing around.
const smoothWidth = 9

// Segment is a stretch of a run's seconds over which the load stayed within
// the tolerance: a hold, or one step of a staircase.
type Segment struct {
	First, Last int     // indexes into Run.Series, inclusive
	Level       float64 // mean load over the segment, in the run's load unit
}

// Len returns the number of seconds in the segment.
func (s Segment) Len() int { return s.Last - s.First + 1 }

// WarmUp returns how many seconds to leave out at the start of a hold of n
// seconds: a twentieth of it, at least 1 and at most 10. Connections are
// opened, caches and JIT compilers warm up, and the queue of a ramp drains
// in these seconds.
func WarmUp(n int) int { return min(10, max(1, int(math.Round(float64(n)/20)))) }

// loadOf returns a run's load model and its per-second load level: active
// VUs for a closed model, where the load is the number of users; offered
// requests (requests + dropped iterations × requests per iteration) for an
// open or mixed one, where the load is a rate, of what the run's samples
// count (metrics.Run.Unit: "req/s", "calls/s" for gRPC, "sessions/s").
func loadOf(r *metrics.Run) (model, unit string, level []float64) {
	model = runModel(r)
	level = make([]float64, len(r.Series))
	if model == "vus" {
		for i, s := range r.Series {
			level[i] = float64(s.VUs)
		}
		return model, "VUs", level
	}
	perIteration := 1.0
	var reqs, iters int64
	for _, s := range r.Series {
		reqs += s.Requests
		iters += s.Iterations
	}
	if iters > 0 && reqs > iters {
		perIteration = float64(reqs) / float64(iters)
	}
	for i, s := range r.Series {
		level[i] = float64(s.Requests) + float64(s.Dropped)*perIteration
	}
	return model, r.Unit().PerSecond(), level
}

// runModel names a run's load model: "vus" when every scenario is closed
// (vus or iterations), "arrival-rate" when every one is open, else "mixed".
func runModel(r *metrics.Run) string {
	closed, open := 0, 0
	for _, s := range r.Layout.Scenarios {
		if s.Model == "arrival-rate" {
			open++
		} else {
			closed++
		}
	}
	switch {
	case open == 0 && closed > 0:
		return "vus"
	case closed == 0:
		return "arrival-rate"
	}
	return "mixed"
}

// Segments splits a load series into maximal stretches over which the
// smoothed load (a running median of smoothWidth seconds) stays within a
// band around its midrange: ±tol of the level, at least loadSlack, and at
// least three times the noise left in the smoothed series, so that a
// saturated server's swinging completions still make one hold. Stretches
// at zero load are left out.
func Segments(level []float64, tol float64) []Segment {
	s := runningMedian(level, smoothWidth)
	noise := 3 * smoothedNoise(level)
	var out []Segment
	for i := 0; i < len(s); {
		lo, hi, j := s[i], s[i], i
		for j+1 < len(s) {
			nlo, nhi := min(lo, s[j+1]), max(hi, s[j+1])
			if nhi-nlo > 2*max(tol*(nlo+nhi)/2, loadSlack, noise) {
				break
			}
			lo, hi, j = nlo, nhi, j+1
		}
		if m := stats.Mean(level[i : j+1]); m > 0 {
			out = append(out, Segment{First: i, Last: j, Level: m})
		}
		i = j + 1
	}
	return out
}

// rawNoise estimates the standard deviation of a load series from second
// to second: the robust spread of its differences (1.4826·MAD/√2), which a
// ramp or a step barely moves.
func rawNoise(level []float64) float64 {
	if len(level) < 3 {
		return 0
	}
	d := make([]float64, len(level)-1)
	for i := range d {
		d[i] = level[i+1] - level[i]
	}
	m := stats.Median(d)
	for i := range d {
		d[i] = math.Abs(d[i] - m)
	}
	return 1.4826 * stats.Median(d) / math.Sqrt2
}

// smoothedNoise is the standard deviation left after the running median:
// rawNoise shrunk by the median's √width (times 1.25, a median's
// inefficiency against a mean).
func smoothedNoise(level []float64) float64 {
	return 1.25 * rawNoise(level) / math.Sqrt(smoothWidth)
}

// steady reports whether a segment is long enough and flat: its trend line
// moves less than half the tolerance (or the noise) from end to end, which
// a hold meets and the top of a ramp, though within the band, does not.
func steady(s Segment, level []float64, tol float64) bool {
	if s.Len() < minSteady {
		return false
	}
	x := level[s.First : s.Last+1]
	return math.Abs(slope(x))*float64(s.Len()-1) <= max(tol/2*s.Level, loadSlack, 3*smoothedNoise(x))
}

// trim drops seconds from either end of a segment while their load — as
// measured, or smoothed over the whole run (sm) — lies more than half the
// tolerance (or three times the noise) from the segment's median: the
// transition seconds a segment may take in from a ramp next to it.
func trim(s Segment, level, sm []float64, tol float64) Segment {
	x := level[s.First : s.Last+1]
	med := stats.Median(x)
	band := max(tol/2*med, loadSlack, 3*smoothedNoise(x))
	rawBand := max(tol/2*med, loadSlack, 3*rawNoise(x))
	off := func(i int) bool { return math.Abs(sm[i]-med) > band || math.Abs(level[i]-med) > rawBand }
	first, last := s.First, s.Last
	for first < last && off(first) {
		first++
	}
	for last > first && off(last) {
		last--
	}
	s.First, s.Last = first, last
	s.Level = stats.Mean(level[s.First : s.Last+1])
	return s
}

// slope is the least-squares slope of x over its index.
func slope(x []float64) float64 {
	n := float64(len(x))
	if n < 2 {
		return 0
	}
	mx, my := (n-1)/2, stats.Mean(x)
	var sxy, sxx float64
	for i, v := range x {
		dx := float64(i) - mx
		sxy += dx * (v - my)
		sxx += dx * dx
	}
	return sxy / sxx
}

// runningMedian smooths a series with a centred running median of w points
// (fewer at the ends).
func runningMedian(x []float64, w int) []float64 {
	out := make([]float64, len(x))
	half := w / 2
	win := make([]float64, 0, w)
	for i := range x {
		lo, hi := max(0, i-half), min(len(x)-1, i+half)
		win = append(win[:0], x[lo:hi+1]...)
		sort.Float64s(win)
		n := len(win)
		if n%2 == 1 {
			out[i] = win[n/2]
		} else {
			out[i] = (win[n/2-1] + win[n/2]) / 2
		}
	}
	return out
}

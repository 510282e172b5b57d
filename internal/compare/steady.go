package compare

import (
	"math"
	"sort"

	"github.com/loadlens/loadlens/internal/metrics"
)

// minSteady is the shortest stretch of seconds that counts as a steady part.
const minSteady = 5

// loadSlack is the absolute wiggle, in requests or VUs per second, that a
// steady load may have on top of the relative tolerance: at 10 req/s one
// request landing in the next second is already 10 %.
const loadSlack = 2

// Segment is a stretch of a run's seconds over which the load stayed within
// the tolerance: a hold, or one step of a staircase.
type Segment struct {
	First, Last int     // indexes into Run.Series, inclusive
	Level       float64 // mean load over the segment, in the run's load unit
}

// Len returns the number of seconds in the segment.
func (s Segment) Len() int { return s.Last - s.First + 1 }

// loadOf returns a run's load model and its per-second load level: active
// VUs for a closed model, where the load is the number of users; offered
// requests (requests + dropped iterations × requests per iteration) for an
// open or mixed one, where the load is a rate.
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
	return model, "req/s", level
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
// (5-second median-smoothed) load stays within ±tol of its midrange, plus
// loadSlack; stretches at zero load are left out. Smoothing first lets a
// one- or two-second hiccup stay inside a hold.
func Segments(level []float64, tol float64) []Segment {
	s := median5(level)
	var out []Segment
	for i := 0; i < len(s); {
		lo, hi, j := s[i], s[i], i
		for j+1 < len(s) {
			nlo, nhi := min(lo, s[j+1]), max(hi, s[j+1])
			if nhi-nlo > max(2*tol*(nlo+nhi)/2, 2*loadSlack) {
				break
			}
			lo, hi, j = nlo, nhi, j+1
		}
		var sum float64
		for k := i; k <= j; k++ {
			sum += level[k]
		}
		if mean := sum / float64(j-i+1); mean > 0 {
			out = append(out, Segment{First: i, Last: j, Level: mean})
		}
		i = j + 1
	}
	return out
}

// trim drops seconds from either end of a segment while they lie more
// than half the tolerance from its median: the transition seconds a
// segment may take in from a ramp next to it.
func trim(s Segment, level []float64, tol float64) Segment {
	med := median(level[s.First : s.Last+1])
	off := func(v float64) bool { return math.Abs(v-med) > max(tol/2*med, loadSlack) }
	for s.First < s.Last && off(level[s.First]) {
		s.First++
	}
	for s.Last > s.First && off(level[s.Last]) {
		s.Last--
	}
	var sum float64
	for k := s.First; k <= s.Last; k++ {
		sum += level[k]
	}
	s.Level = sum / float64(s.Len())
	return s
}

// median returns the median of x (which it does not modify).
func median(x []float64) float64 {
	c := append([]float64(nil), x...)
	sort.Float64s(c)
	n := len(c)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}

// longest returns the longest segment that keep accepts (ties: the higher
// load), and false when none does.
func longest(segs []Segment, keep func(Segment) bool) (Segment, bool) {
	var best Segment
	found := false
	for _, s := range segs {
		if !keep(s) {
			continue
		}
		if !found || s.Len() > best.Len() || (s.Len() == best.Len() && s.Level > best.Level) {
			best, found = s, true
		}
	}
	return best, found
}

// median5 smooths a series with a centred 5-point running median (shorter
// at the ends).
func median5(x []float64) []float64 {
	out := make([]float64, len(x))
	var w [5]float64
	for i := range x {
		lo, hi := max(0, i-2), min(len(x)-1, i+2)
		n := copy(w[:], x[lo:hi+1])
		win := w[:n]
		sort.Float64s(win)
		if n%2 == 1 {
			out[i] = win[n/2]
		} else {
			out[i] = (win[n/2-1] + win[n/2]) / 2
		}
	}
	return out
}

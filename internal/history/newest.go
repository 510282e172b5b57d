package history

import (
	"math"

	"github.com/loadlens/loadlens/internal/compare"
)

// Outrun is the newest values of a series, fewer than MinRuns since its
// level began (no change point can hold them yet), set against the values
// of that level before them: whether they lie past its spread for the worse.
type Outrun struct {
	Past   bool    // each judged value past the earlier values' prediction interval, the worse way
	Change float64 // the judged values' mean against the earlier mean: a ratio − 1 when relative, a difference otherwise
	T, Q   float64 // the smallest prediction t statistic of the judged values and the one-sided quantile each had to pass
	Before int     // how many values of the level they were set against
	// Runs is how many newest values were judged: 1, or up to MinRuns − 1
	// when that many together lie past the level before them.
	Runs int
	// At is the index in xs of the newest value judged: the newest one
	// change points analyse, not always the last; -1 when there is none.
	// First is the index of the oldest one judged (At when Runs is 1).
	At, First int
	analysed  int // usable values of the whole series
}

// Analysed is how many values of the series count for change points: the
// count JudgesChange takes.
func (o Outrun) Analysed() int { return o.analysed }

// JudgesChange reports whether n analysed runs are enough for a change
// point: MinRuns a side.
func (m Method) JudgesChange(n int) bool { return n >= 2*m.MinRuns }

// NewestOutrun sets the newest usable values of xs (NaN, and a value ≤ 0
// of a relative figure, are not analysed: Detect drops them too) against
// the usable values of their level before them, from index from (the last
// change point's At, 0 when none), with Student's prediction interval on
// that level without its outliers, one-sided at OutrunLevel shared over
// family series. A change point needs MinRuns runs after it, so the newest
// 1 to MinRuns − 1 runs of a new level are judged so or not at all: the
// newest run alone, or the newest k when each of them lies past the level
// before them (the largest such k is reported). At says which value was
// judged: the last one may have none. Fewer than two earlier values judge
// nothing (Past false, Before says how many).
func (m Method) NewestOutrun(xs []float64, from int, f Figure, family int) Outrun {
	ys, idx := transform(xs, f.Relative())
	if len(ys) == 0 {
		return Outrun{At: -1, First: -1}
	}
	start := 0 // the level's first usable value
	for start < len(ys) && idx[start] < from {
		start++
	}
	best := m.outrunOf(ys, start, 1, f, family)
	for k := 2; k < m.MinRuns; k++ {
		if o := m.outrunOf(ys, start, k, f, family); o.Past {
			best = o
		}
	}
	best.At, best.First, best.analysed = idx[len(idx)-1], idx[len(idx)-best.Runs], len(ys)
	return best
}

// outrunOf judges the newest k values of ys against ys[start:len−k]: past
// when every one of them is past the prediction interval.
func (m Method) outrunOf(ys []float64, start, k int, f Figure, family int) Outrun {
	last := len(ys) - k
	o := Outrun{Runs: k, Before: max(last-start, 0)}
	if o.Before < 2 {
		return o
	}
	earlier := ys[start:last]
	// an outlier run would widen the spread for good; but when more than a
	// quarter lie out (figures of a few values, 10 or 11 ms), they are the spread
	if t := m.trim(earlier); 4*(len(earlier)-len(t)) <= len(earlier) {
		earlier = t
	}
	mean, variance := meanVar(earlier)
	sp := max(math.Sqrt(variance), m.Floor)
	n := float64(len(earlier))
	newest, _ := meanVar(ys[last:])
	o.Change = newest - mean
	if f.Relative() {
		o.Change = math.Expm1(o.Change)
	}
	o.Q = compare.StudentTQuantile(1-m.OutrunLevel(family), n-1)
	o.T, o.Past = math.Inf(1), true
	for _, x := range ys[last:] {
		d := x - mean
		t := math.Abs(d) / (sp * math.Sqrt(1+1/n))
		if !f.Worse(d) {
			t = -t
		}
		o.T = min(o.T, t)
		o.Past = o.Past && f.Worse(d) && t > o.Q
	}
	return o
}

// OutrunLevel is the newest-runs rule's one-sided level among family
// series: NewestAlpha (Alpha/10 when unset) shared over them. The gate
// judges so after every run, each time a chance of failing a healthy
// build: at one-sided 5 %, a no-change series of 20 runs whose busy host
// left 4 analysed failed at run 8 (trial B39).
func (m Method) OutrunLevel(family int) float64 {
	a := m.NewestAlpha
	if a <= 0 {
		a = m.Alpha / 10
	}
	return a / float64(max(family, 1))
}

// LevelStart is where the newest level of a series begins: the At of the
// last of its change points steps (in order, as Detect returns them), 0
// when there is none.
func LevelStart(steps []Step) int {
	if len(steps) == 0 {
		return 0
	}
	return steps[len(steps)-1].At
}

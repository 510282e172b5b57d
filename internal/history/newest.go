package history

import (
	"math"

	"github.com/loadlens/loadlens/internal/compare"
)

// Outrun is the newest value of a series set against the values before it
// when they are too few for a change point (Method.JudgesChange): whether
// it lies past their spread for the worse.
type Outrun struct {
	Past   bool    // past the earlier values' prediction interval, the worse way
	Change float64 // the newest value against their mean: a ratio − 1 when relative, a difference otherwise
	T, Q   float64 // its prediction t statistic and the one-sided quantile it had to pass
	Before int     // how many values it was set against
	// At is the index in xs of the value judged: the newest one change
	// points analyse, not always the last; -1 when there is none.
	At int
}

// Analysed is how many values of the series count for change points
// (the one judged and those before it): the count JudgesChange takes.
func (o Outrun) Analysed() int {
	if o.At < 0 {
		return 0
	}
	return o.Before + 1
}

// JudgesChange reports whether n analysed runs are enough for a change
// point: MinRuns a side.
func (m Method) JudgesChange(n int) bool { return n >= 2*m.MinRuns }

// NewestOutrun sets the newest usable value of xs (NaN, and a value ≤ 0
// of a relative figure, are not analysed: Detect drops them too) against
// the usable values before it with Student's prediction interval,
// one-sided at OutrunLevel shared
// over family series: on a few runs, a newest run clearly past its
// predecessors' spread is a change for the worse though no level is held
// yet. At says which value was judged: the last one may have none. Fewer
// than two earlier values judge nothing (Past false, Before says how many).
func (m Method) NewestOutrun(xs []float64, f Figure, family int) Outrun {
	ys, idx := transform(xs, f.Relative())
	if len(ys) == 0 {
		return Outrun{At: -1}
	}
	x, earlier := ys[len(ys)-1], ys[:len(ys)-1]
	o := Outrun{Before: len(earlier), At: idx[len(idx)-1]}
	if len(earlier) < 2 {
		return o
	}
	mean, variance := meanVar(earlier)
	sp := max(math.Sqrt(variance), m.Floor)
	k := float64(len(earlier))
	d := x - mean
	o.Change = d
	if f.Relative() {
		o.Change = math.Expm1(d)
	}
	if !f.Worse(d) {
		return o
	}
	o.T = math.Abs(d) / (sp * math.Sqrt(1+1/k))
	o.Q = compare.StudentTQuantile(1-m.OutrunLevel(family), k-1)
	o.Past = o.T > o.Q
	return o
}

// OutrunLevel is the few-runs rule's one-sided level among family series:
// NewestAlpha (Alpha/10 when unset) shared over them. The gate judges so
// after every run while fewer than 2·MinRuns are analysed, each time a
// chance of failing a healthy build: at one-sided 5 %, a no-change series
// of 20 runs whose busy host left 4 analysed failed at run 8 (trial B39).
func (m Method) OutrunLevel(family int) float64 {
	a := m.NewestAlpha
	if a <= 0 {
		a = m.Alpha / 10
	}
	return a / float64(max(family, 1))
}

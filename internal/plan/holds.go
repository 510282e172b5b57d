package plan

import (
	"math"
	"slices"
	"time"
)

// Hold is a stretch of whole seconds of a run over which every scenario of
// its test holds its load constant, its warm-up and partial seconds left
// out.
type Hold struct {
	First, Last int     // seconds of the run, inclusive
	Load        float64 // the scheduled load in the run's load unit; 0 for a mix of models, measured instead
}

// Holds returns the stretches of a test's schedule over which every
// scenario holds its load constant, as whole seconds of the run: the first
// second after a change of load plus warmUp of the stretch's length, to
// the last second that ends before the next change. Their load is the
// scheduled one — VUs when every scenario is closed, offered requests per
// second (rate × requests per iteration) when every one is open — and 0
// for a mix, which compare measures instead. A test with an iterations
// scenario has no schedule to hold.
func Holds(p *Plan, warmUp func(seconds int) int) []Hold {
	cuts, closed, open, ok := scheduleCuts(p)
	if !ok {
		return nil
	}
	var out []Hold
	for _, s := range steadySpans(p, cuts) {
		var total float64
		for _, v := range s.at {
			total += v
		}
		if total <= 0 {
			continue
		}
		first := int(math.Ceil(s.from.Seconds()))
		last := int(math.Floor(s.to.Seconds())) - 1
		if last < first {
			continue
		}
		first += warmUp(last - first + 1)
		if last < first {
			continue
		}
		h := Hold{First: first, Last: last}
		if closed == 0 || open == 0 {
			h.Load = total
		}
		out = append(out, h)
	}
	return out
}

// scheduleCuts returns the sorted offsets at which some scenario's load
// changes, and how many scenarios are closed and open; ok is false for a
// test with an iterations scenario.
func scheduleCuts(p *Plan) (cuts []time.Duration, closed, open int, ok bool) {
	for _, s := range p.Scenarios {
		switch s.Load.Model {
		case Iterations:
			return nil, 0, 0, false
		case VUs:
			closed++
		default:
			open++
		}
		at := s.StartTime
		cuts = append(cuts, at)
		for _, st := range s.Load.Stages {
			at += st.Duration
			cuts = append(cuts, at)
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts), closed, open, true
}

// steadySpan is a stretch between cuts over which each scenario's load
// (at) stays the same.
type steadySpan struct {
	from, to time.Duration
	at       []float64
}

// steadySpans joins the stretches between cuts whose load does not change
// (a ramp changes it) into spans of one level.
func steadySpans(p *Plan, cuts []time.Duration) []steadySpan {
	var spans []steadySpan
	for i := 0; i+1 < len(cuts); i++ {
		a, b := loadLevel(p, cuts[i], false), loadLevel(p, cuts[i+1], true)
		if !slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }) {
			continue // a ramp
		}
		if n := len(spans); n > 0 && spans[n-1].to == cuts[i] && slices.Equal(spans[n-1].at, a) {
			spans[n-1].to = cuts[i+1]
			continue
		}
		spans = append(spans, steadySpan{cuts[i], cuts[i+1], a})
	}
	return spans
}

// loadLevel is each scenario's load just after (or just before) t.
func loadLevel(p *Plan, t time.Duration, before bool) []float64 {
	out := make([]float64, len(p.Scenarios))
	for i, s := range p.Scenarios {
		off := t - s.StartTime
		if before {
			off -= time.Nanosecond
		}
		if off < 0 || off >= s.Load.Duration() {
			continue
		}
		if s.Load.Model == VUs {
			out[i] = float64(VUsAt(&s.Load, off))
		} else {
			out[i] = RateAt(&s.Load, off) * float64(s.RequestsPerIteration())
		}
	}
	return out
}

// RequestsPerIteration counts the requests one iteration of the scenario
// sends, at least 1.
func (s *Scenario) RequestsPerIteration() int {
	n := 0
	for _, st := range s.Flow {
		if st.Kind == RequestStep || st.Kind == SessionStep {
			n++
		}
	}
	return max(n, 1)
}

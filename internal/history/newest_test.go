package history

import (
	"math"
	"testing"
)

// NewestOutrun judges the newest value change points analyse, and says
// which: a last run whose latency is 0 or missing is dropped from the
// logarithms, and judging by position in them set an older run, called
// the newest, against the ones before it, one of them counted twice.
func TestNewestOutrunJudgesTheNewestUsableValue(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name     string
		xs       []float64
		f        Figure
		at       int
		analysed int
		past     bool
	}{
		{"newest past four quiet runs", []float64{22, 21.6, 22.4, 22.5, 27.6}, P50, 4, 5, true},
		{"newest 0: the run before it is judged", []float64{22, 21.6, 22.4, 27.6, 0}, P50, 3, 4, true},
		{"newest without the endpoint", []float64{22, 21.6, 22.4, 27.6, nan}, P50, 3, 4, true},
		{"newest 0 after a quiet run", []float64{22, 21.6, 22.4, 22.1, 0}, P50, 3, 4, false},
		{"a 0 between: not counted", []float64{22, 0, 21.6, 22.4, 27.6}, P50, 4, 4, true},
		{"rps 0 is dropped", []float64{100, 101, 99, 70, 0}, Throughput, 3, 4, true},
		{"an error rate of 0 counts", []float64{0.01, 0.01, 0.011, 0.012, 0}, Errors, 4, 5, false},
		{"nothing usable", []float64{0, nan}, P50, -1, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultMethod.NewestOutrun(tc.xs, 0, tc.f, 1)
			if o.At != tc.at || o.Analysed() != tc.analysed || o.Past != tc.past {
				t.Errorf("judged index %d of %d analysed, past %v; want %d of %d, past %v (%+v)", o.At, o.Analysed(), o.Past, tc.at, tc.analysed, tc.past, o)
			}
		})
	}
}

// NewestOutrun sets the newest runs against their level only: the runs
// since the last change point, without an outlier run among them, and the
// newest two together when each is past it (a change point needs 3).
func TestNewestOutrunSetsTheNewestRunsAgainstTheirLevel(t *testing.T) {
	for _, tc := range []struct {
		name  string
		xs    []float64
		from  int
		past  bool
		runs  int
		first int
	}{
		{"newest past its level", []float64{22, 22.4, 30, 30.3, 29.8, 30.1, 36}, 2, true, 1, 6},
		{"the same against every run: an old level widens the spread", []float64{22, 22.4, 30, 30.3, 29.8, 30.1, 36}, 0, false, 1, 6},
		{"two newest, each past", []float64{6.0, 6.4, 6.2, 6.3, 6.2, 16.8, 16.9}, 0, true, 2, 5},
		{"an outlier run among the level is left out", []float64{6.0, 6.4, 16.2, 6.3, 6.2, 16.8}, 0, true, 1, 5},
		{"a slow run, then one back", []float64{6.0, 6.4, 6.2, 6.3, 6.2, 16.8, 6.1}, 0, false, 1, 6},
		{"figures of two values are the spread, not outliers", []float64{10, 11, 10, 11, 10, 11, 10, 11}, 0, false, 1, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultMethod.NewestOutrun(tc.xs, tc.from, P50, 1)
			if o.Past != tc.past || o.Runs != tc.runs || o.First != tc.first || o.At != len(tc.xs)-1 {
				t.Errorf("past %v, %d runs from %d; want past %v, %d runs from %d (%+v)", o.Past, o.Runs, o.First, tc.past, tc.runs, tc.first, o)
			}
		})
	}
}

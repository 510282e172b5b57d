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
			o := DefaultMethod.NewestOutrun(tc.xs, tc.f, 1)
			if o.At != tc.at || o.Analysed() != tc.analysed || o.Past != tc.past {
				t.Errorf("judged index %d of %d analysed, past %v; want %d of %d, past %v (%+v)", o.At, o.Analysed(), o.Past, tc.at, tc.analysed, tc.past, o)
			}
		})
	}
}

package metrics

import (
	"testing"

	"github.com/loadlens/loadlens/internal/threshold"
)

// TestVUsGaugeWhileRunning checks the vus gauge's value and min: they are
// over the seconds the VUs ran, so a steady 2-VU run whose last, partial
// second was collected after its VUs stopped is not read as min 0, value 0
// (a trial's `vus: min>0` failed on a healthy run). A 0 between seconds
// with VUs is kept: the VUs were running, none were busy.
func TestVUsGaugeWhileRunning(t *testing.T) {
	tests := []struct {
		name          string
		vus           []int64 // scenario 0's gauge per second; scenario 1 has none
		last, lo, hi  int64
		scLast, scMin int64 // scenario 0's VUsLast and VUsMin
	}{
		{"steady, stopped before the last second", []int64{2, 2, 0}, 2, 2, 2, 2, 2},
		{"steady, a graceful stop of three idle seconds", []int64{2, 2, 2, 0, 0, 0}, 2, 2, 2, 2, 2},
		{"ramp down ends with VUs", []int64{4, 3, 1}, 1, 1, 4, 1, 1},
		{"idle between busy seconds counts", []int64{3, 0, 2, 0}, 2, 0, 3, 2, 0},
		{"never any VU", []int64{0, 0}, 0, 0, 0, 0, 0},
		{"one second", []int64{5}, 5, 5, 5, 5, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := NewRun(testLayout())
			for sec, v := range tt.vus {
				s := NewSnapshot(sec, run.Layout)
				s.Scenarios[0].VUs = v
				run.Add(s)
			}
			if last, lo, hi := run.VUs(); last != tt.last || lo != tt.lo || hi != tt.hi {
				t.Errorf("VUs() = value %d, min %d, max %d; want %d, %d, %d", last, lo, hi, tt.last, tt.lo, tt.hi)
			}
			if sc := run.Scenarios[0]; sc.VUsLast != tt.scLast || sc.VUsMin != tt.scMin {
				t.Errorf("scenario VUsLast %d, VUsMin %d; want %d, %d", sc.VUsLast, sc.VUsMin, tt.scLast, tt.scMin)
			}
			for _, agg := range []struct {
				kind threshold.AggKind
				want int64
			}{{threshold.Value, tt.last}, {threshold.Min, tt.lo}} {
				got, ok := run.Observe(&threshold.Threshold{Metric: "vus", Agg: agg.kind})
				if !ok || got != float64(agg.want) {
					t.Errorf("threshold vus %v observed %v (%v), want %d", agg.kind, got, ok, agg.want)
				}
			}
		})
	}
}

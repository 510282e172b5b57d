package comparerun

import (
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/series"
)

// TestHostSteal reads a run's CPU steal as a share of its host's CPUs,
// per second, and none where the run did not record both series once.
func TestHostSteal(t *testing.T) {
	gauge := func(name string, pts ...series.Point) *series.Series {
		return &series.Series{Name: name, Kind: series.Gauge, Points: pts}
	}
	steal := gauge(diagnose.HostSteal, series.Point{Sec: 0, Value: 0.2}, series.Point{Sec: 1, Value: 0}, series.Point{Sec: 2, Value: 0.5})
	cpus := gauge(diagnose.HostCPUs, series.Point{Sec: 0, Value: 2}, series.Point{Sec: 1, Value: 2})
	tests := []struct {
		name string
		set  series.Set
		want map[int]float64
	}{
		{"steal over CPUs, seconds without a CPU count left out", series.Set{steal, cpus}, map[int]float64{0: 0.1, 1: 0}},
		{"no steal series", series.Set{cpus}, nil},
		{"no CPU count", series.Set{steal}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := hostSteal(tc.set)
			if len(got) != len(tc.want) || (got == nil) != (tc.want == nil) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for sec, v := range tc.want {
				if got[sec] != v {
					t.Errorf("second %d: %v, want %v", sec, got[sec], v)
				}
			}
		})
	}
}

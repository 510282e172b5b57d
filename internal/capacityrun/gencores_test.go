package capacityrun

import (
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/series"
)

// TestGeneratorCores: a step's generator CPU is a share of the capacity
// the run recorded (a container's quota, the busiest agent's), not of this
// process's GOMAXPROCS, which Go rounds up from a quota.
func TestGeneratorCores(t *testing.T) {
	capacity := func(vs ...float64) series.Set {
		s := &series.Series{Name: diagnose.GeneratorCapacity, Labels: []series.Label{{Name: "role", Value: "generator"}}, Kind: series.Gauge}
		for i, v := range vs {
			s.Points = append(s.Points, series.Point{Sec: i, Value: v})
		}
		return series.Set{s}
	}
	for _, tt := range []struct {
		name string
		set  series.Set
		want float64
	}{
		{"a 1.5-core quota recorded", capacity(1.5, 1.5, 1.5), 1.5},
		{"a quota raised mid-step: its median", capacity(1, 1.5, 1.5), 1.5},
		{"none recorded: GOMAXPROCS", nil, 4},
	} {
		if got := generatorCores(tt.set, 4); got != tt.want {
			t.Errorf("%s: %v cores, want %v", tt.name, got, tt.want)
		}
	}
}

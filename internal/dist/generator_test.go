package dist

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// fakeGenerator is a generator over agents that exist only as state, for
// tests of merging without a network; every second is due at once.
func fakeGenerator(layout sample.Layout, cores ...int) *generator {
	g := newGenerator(&plan.Plan{Layout: layout}, make([]*remote, len(cores)), time.Second)
	for i, a := range g.agents {
		a.remote = &remote{name: fmt.Sprint("agent ", i+1), who: welcome{CPUs: cores[i]}}
	}
	g.start = time.Now().Add(-time.Hour)
	return g
}

func TestBusiestAgentIsTheGeneratorsFigure(t *testing.T) {
	layout := oneGETLayout()
	g := fakeGenerator(layout, 2, 4, 8)
	// Agent 1 uses 1 of 2 cores (50%), agent 2 1.5 of 4 (37.5%), agent 3 3.9 of 8 (48.75%), agent 1 the busiest.
	for i, cpu := range []float64{1, 1.5, 3.9} {
		g.update(func() { g.agents[i].receive(0, cpu, metrics.NewSnapshot(0, layout)) })
	}
	g.update(func() { g.agents[0].receive(1, math.NaN(), metrics.NewSnapshot(1, layout)) })
	g.Second(0)
	if cpu, cores, ok := g.Busiest(0); !ok || cpu != 1 || cores != 2 {
		t.Errorf("Busiest(0) = %v of %v cores (%v), want agent 1's 1 of 2", cpu, cores, ok)
	}
	g.update(func() { g.agents[1].done, g.agents[2].done = true, true }) // they end: second 1 is agent 1's alone
	g.Second(1)
	if _, _, ok := g.Busiest(1); ok {
		t.Error("Busiest(1) is known, but the one agent of second 1 did not know its CPU")
	}
}

//go:build linux

package engine

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// startBytesBound is the most a closed-model VU may allocate to be made
// and to run its first iteration (its connection included): 5.9 KiB
// measured (docs/generator.md), 10,000 VUs starting together allocate
// 10,000 times it while timed.
const startBytesBound = 7 << 10

// TestVUStartAllocatesLittle pins what a VU's making and first iteration
// allocate, in bytes per VU over 200 VUs: the heap 10,000 VUs add while
// they start, which the GC has to make room for.
func TestVUStartAllocatesLittle(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates for itself")
	}
	url := benchServer(t) // in another process: its allocations are not the VUs'
	s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(url), think(time.Microsecond))
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, nullSink{}, Options{})
	e.start = time.Now()
	ctx := context.Background()
	warm := e.scens[0].readyVU() // first use: the pool's buffer, the package's lazily made state
	warm.iterate(ctx, time.Time{})
	defer warm.close()
	const n = 200
	vus := make([]*vu, 0, n)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range n {
		v := e.scens[0].readyVU()
		if !v.iterate(ctx, time.Time{}) {
			t.Fatal("iteration failed")
		}
		vus = append(vus, v)
	}
	runtime.ReadMemStats(&m1)
	for _, v := range vus {
		v.close()
	}
	per := (m1.TotalAlloc - m0.TotalAlloc) / n
	t.Logf("%d bytes, %.1f allocations per VU made and run once", per, float64(m1.Mallocs-m0.Mallocs)/n)
	if per > startBytesBound {
		t.Fatalf("a VU's making and first iteration allocate %d bytes, want at most %d", per, startBytesBound)
	}
}

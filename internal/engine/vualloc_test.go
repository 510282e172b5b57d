package engine

import (
	"context"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/plan"
)

// TestThinkingIterationDoesNotAllocate: a closed-model iteration of a GET
// and a think time allocates nothing once the VU is connected: its timer,
// its connection and its read buffer (pooled while it thinks) are reused.
// At 10,000 VUs one allocation per iteration is 10,000 a second.
func TestThinkingIterationDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random")
	}
	url := h1test.FixedServer(t)
	s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(url), think(time.Microsecond))
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{s}}, nullSink{}, Options{})
	e.start = time.Now()
	v := e.scens[0].readyVU()
	defer v.close()
	ctx := context.Background()
	v.iterate(ctx, time.Time{}) // warm up: dial, timer, buffers
	if n := testing.AllocsPerRun(200, func() { v.iterate(ctx, time.Time{}) }); n != 0 {
		t.Fatalf("%v allocations per iteration of a GET and a think time, want 0", n)
	}
}

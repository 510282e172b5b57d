package engine

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// iterationLog keeps each iteration's end and duration.
type iterationLog struct {
	nullSink
	mu         sync.Mutex
	ends, durs []time.Duration
}

func (l *iterationLog) Sink(int) sample.Sink { return l }
func (l *iterationLog) Iteration(_ int32, end, d time.Duration) {
	l.mu.Lock()
	l.ends, l.durs = append(l.ends, end), append(l.durs, d)
	l.mu.Unlock()
}

func (l *iterationLog) read() (ends, durs []time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]time.Duration(nil), l.ends...), append([]time.Duration(nil), l.durs...)
}

// TestRampDownEndsAThinkingVUAtOnce: a VU a ramp-down removes while it
// waits in its flow's last think time, or for its first start, leaves at
// once, so the active VUs follow the plan; the iteration whose think it
// cut is recorded complete with the think it drew, as at the scenario's
// end. One in a think with steps after it is mid-iteration, as in k6: it
// keeps its graceful ramp-down. Before, a removed VU waited out its think
// (here 10 min, so until the scenario's end), the VU count lagging the plan.
// On a fake clock: every timer exact.
func TestRampDownEndsAThinkingVUAtOnce(t *testing.T) {
	const (
		vus, kept = 20, 10
		z         = 10 * time.Minute
		down      = time.Second // the ramp-down is from 10 ms + down to 20 ms + down
		grace     = 10 * time.Second
	)
	set := plan.Step{Kind: plan.SetStep, Block: &plan.Block{}}
	tests := []struct {
		name     string
		startVUs int // VUs at once, spread over z: still waiting for their start at the ramp-down
		flow     []plan.Step
		iters    int           // iterations recorded when the removed VUs have left
		dur      time.Duration // each lasting this: the thinks drawn
		keptFor  time.Duration // how long the removed VUs stay after the ramp-down: its grace, or till they park
	}{
		{"in the last think", 0, []plan.Step{think(z)}, vus - kept, z, 0},
		{"waiting for its first start", vus, []plan.Step{think(z)}, 0, 0, 0},
		// as they park in the last think, 1 s after the ramp-down
		{"parking after the ramp-down", 0, []plan.Step{think(2 * down), think(z)}, vus - kept, 2*down + z, down},
		{"in a think with steps after it", 0, []plan.Step{think(z), set, think(z)}, 0, 0, grace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				load := plan.Load{Model: plan.VUs, StartVUs: tt.startVUs, GracefulRampDown: grace,
					Stages: []plan.Stage{{Duration: 10 * time.Millisecond, Target: vus}, {Duration: down, Target: vus},
						{Duration: 10 * time.Millisecond, Target: kept}, {Duration: time.Minute, Target: kept}}}
				log := &iterationLog{}
				sc := pastRampDown(t, load, tt.flow, log, vus, down)
				want := kept
				if tt.keptFor > 0 {
					want = vus
				}
				if n := sc.active.Load(); n != int64(want) {
					t.Fatalf("%d VUs active 100 ms after the ramp-down to %d, want %d", n, kept, want)
				}
				if tt.keptFor > 0 {
					time.Sleep(tt.keptFor)
					synctest.Wait()
					if n := sc.active.Load(); n != kept {
						t.Fatalf("%d VUs active %v after the ramp-down, want %d", n, tt.keptFor+100*time.Millisecond, kept)
					}
				}
				ends, durs := log.read()
				if len(ends) != tt.iters {
					t.Fatalf("%d iterations recorded, want %d", len(ends), tt.iters)
				}
				for i := range ends {
					if by := down + 30*time.Millisecond + tt.keptFor; ends[i] > by || durs[i] != tt.dur {
						t.Fatalf("an iteration ended at %v lasting %v; want by %v, lasting the thinks it drew (%v)", ends[i], durs[i], by, tt.dur)
					}
				}
			})
		})
	}
}

// TestZeroGracefulRampDownInterruptsAtOnce: graceful_ramp_down: 0s, as in
// k6, interrupts a VU that a ramp-down removes mid-iteration at once;
// before, a zero skipped the interrupt, so the VU ran its iteration to
// its end (here a 10 min think). On a fake clock: every timer exact.
func TestZeroGracefulRampDownInterruptsAtOnce(t *testing.T) {
	const (
		vus, kept = 4, 2
		z         = 10 * time.Minute
		down      = time.Second // the ramp-down is from 10 ms + down to 20 ms + down
	)
	set := plan.Step{Kind: plan.SetStep, Block: &plan.Block{}}
	tests := []struct {
		name  string
		grace time.Duration
		want  int64 // VUs active 100 ms after the ramp-down
	}{
		{"zero: at once", 0, kept},
		{"a second: not yet", time.Second, vus},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				load := plan.Load{Model: plan.VUs, GracefulRampDown: tt.grace,
					Stages: []plan.Stage{{Duration: 10 * time.Millisecond, Target: vus}, {Duration: down, Target: vus},
						{Duration: 10 * time.Millisecond, Target: kept}, {Duration: time.Minute, Target: kept}}}
				sc := pastRampDown(t, load, []plan.Step{think(z), set, think(z)}, &iterationLog{}, vus, down)
				if n := sc.active.Load(); n != tt.want {
					t.Fatalf("%d VUs active 100 ms after the ramp-down to %d with graceful_ramp_down %v, want %d", n, kept, tt.grace, tt.want)
				}
			})
		})
	}
}

// pastRampDown runs flow under load in a synctest bubble until 100 ms after
// its ramp-down from vus VUs, which starts at down, checking that vus were
// active 100 ms before it, and returns the scenario; the run is cancelled
// and awaited when the test ends, also after a failure, so the bubble ends
// with its goroutines.
func pastRampDown(t *testing.T, load plan.Load, flow []plan.Step, log *iterationLog, vus int64, down time.Duration) *scenarioRun {
	t.Helper()
	e := New(&plan.Plan{Scenarios: []*plan.Scenario{scenario(load, flow...)}}, log, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	sc := e.scens[0]
	time.Sleep(down - 100*time.Millisecond)
	synctest.Wait()
	if n := sc.active.Load(); n != vus {
		t.Fatalf("%d VUs active before the ramp-down, want %d", n, vus)
	}
	time.Sleep(200 * time.Millisecond) // the ramp-down is over
	synctest.Wait()
	return sc
}

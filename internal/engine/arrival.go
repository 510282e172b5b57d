package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// runArrivals is the open-model executor. Iterations start at the times the
// schedule computes; each is handed to an idle VU, or to a new one while
// the VU ceiling allows, or else it is dropped and counted. It is never
// shifted in time: a late start is timed from its intended start.
func (sc *scenarioRun) runArrivals(ctx context.Context, start time.Time) {
	l := &sc.s.Load
	seg := sc.e.opts.Segment
	maxVUs := max(seg.Share(l.MaxVUs), 1)
	pre := min(seg.Share(l.PreAllocatedVUs), maxVUs)
	hard, interrupt := context.WithCancel(ctx)
	defer interrupt()

	// work carries intended start times. Each send is matched by an idle
	// token a VU put in before waiting, so sends never block.
	work := make(chan time.Time, maxVUs)
	var idle atomic.Int64
	var wg sync.WaitGroup
	spawn := func(first time.Time) {
		sc.allocated.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := sc.newVU()
			if !first.IsZero() && !v.arrive(hard, first) {
				return
			}
			for {
				idle.Add(1)
				at, ok := <-work
				if !ok || !v.arrive(hard, at) {
					return
				}
			}
		}()
	}
	for range pre {
		spawn(time.Time{})
	}

	drops := sc.e.rec.Sink(0)
	arrivals := plan.NewArrivals(l, seg)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
schedule:
	for {
		off, ok := arrivals.Next()
		if !ok {
			break
		}
		at := start.Add(off)
		if d := time.Until(at); d > 0 {
			timer.Reset(d)
			select {
			case <-timer.C:
			case <-ctx.Done():
				break schedule
			case <-sc.stopped:
				break schedule
			}
		} else if ctx.Err() != nil || sc.isStopped() {
			break
		}
		if idle.Add(-1) >= 0 {
			work <- at
			continue
		}
		idle.Add(1)
		if sc.allocated.Load() < int64(maxVUs) {
			spawn(at)
			continue
		}
		drops.Dropped(sc.s.ID, sc.e.since(at))
	}
	close(work)
	sc.drain(&wg, interrupt)
}

// arrive runs one open-model iteration, recording how late it started.
func (v *vu) arrive(ctx context.Context, intended time.Time) bool {
	now := time.Now()
	v.sink.Lag(v.sc.s.ID, v.sc.e.since(now), now.Sub(intended))
	v.sc.active.Add(1)
	defer v.sc.active.Add(-1)
	return v.iterate(ctx, intended)
}

package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// runIterations runs a fixed number of iterations shared by a few VUs, for
// smoke tests; it gives up starting new ones after the maximum duration.
func (sc *scenarioRun) runIterations(ctx context.Context) {
	l := &sc.s.Load
	seg := sc.e.opts.Segment
	count := int64(seg.Share(int(l.Count)))
	vus := seg.Share(l.VUCount)
	if count > 0 {
		vus = max(vus, 1)
	}
	vus = int(min(int64(vus), max(count, 1))) // a VU beyond the iterations would have nothing to do
	hard, interrupt := context.WithCancelCause(ctx)
	defer interrupt(nil)
	deadline := time.Now().Add(l.MaxDuration)
	var started atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < vus && (i%vuBatch != 0 || sc.creating(ctx, deadline)); i++ {
		sc.allocated.Add(1)
		sc.begin()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sc.active.Add(-1)
			v := sc.newVU()
			defer v.close()
			for started.Add(1) <= count && time.Now().Before(deadline) && !sc.isStopped() {
				if !v.iterate(hard, time.Time{}) && hard.Err() != nil {
					return
				}
			}
		}()
	}
	// the graceful stop begins at the maximum duration, as in k6
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-done:
		return
	case <-ctx.Done():
	case <-t.C:
	}
	sc.drain(ctx, &wg, interrupt)
}

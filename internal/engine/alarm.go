package engine

import (
	"context"
	"time"
)

// coarseWait waits for d on t unless ctx ends first; it reports whether d passed.
func coarseWait(ctx context.Context, t *time.Timer, d time.Duration) bool {
	t.Reset(d)
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		t.Stop()
		return false
	}
}

// coarseSleep is coarseWait with a timer of its own.
func coarseSleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	return coarseWait(ctx, t, d)
}

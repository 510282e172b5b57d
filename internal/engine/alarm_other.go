//go:build !linux

package engine

import (
	"context"
	"time"
)

// alarm wakes the open-model scheduler at an arrival's intended start.
type alarm struct{ t *time.Timer }

func newAlarm() *alarm { return &alarm{t: time.NewTimer(time.Hour)} }

// wait sleeps until at; false means ctx ended first.
func (a *alarm) wait(ctx context.Context, at time.Time) bool {
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err() == nil
	}
	return coarseWait(ctx, a.t, d)
}

func (a *alarm) close() { a.t.Stop() }

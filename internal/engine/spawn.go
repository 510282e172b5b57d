package engine

import (
	"context"
	"time"
)

// vuBatch is how many VUs an executor creates before it looks again at
// the context and the clock, so that Ctrl-C, and the end of the schedule,
// stop even the creation of 100,000,000 VUs at once.
const vuBatch = 256

// eagerVUs bounds the VUs an open-model scenario creates before its first
// arrival; the rest of preAllocatedVUs are created when an arrival needs
// one, which costs microseconds.
const eagerVUs = 1024

// creating reports whether an executor may go on creating VUs: the run goes
// on, the scenario was not stopped, and its schedule has not ended.
func (sc *scenarioRun) creating(ctx context.Context, end time.Time) bool {
	return ctx.Err() == nil && !sc.isStopped() && time.Now().Before(end)
}

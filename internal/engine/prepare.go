package engine

import (
	"context"
	"runtime"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// Preparing ends prepareMargin before the start, so the first arrivals
// find the process quiet; without a start it may take prepareBudget.
const (
	prepareMargin = 20 * time.Millisecond
	prepareBudget = 250 * time.Millisecond
)

// PrepareLead is how far ahead of now a caller sets Options.Start so that
// Run has time to prepare: a thousand VUs and a GC take tens of
// milliseconds; what does not fit is made when needed. Connections are not
// opened ahead: each VU's first request connects, timed, as k6's do, so
// the run reports its connect times (and a TLS handshake that fails is
// recorded, never an attempt the server saw and the run did not).
const PrepareLead = 300 * time.Millisecond

// prepare makes, before the clock starts, what the first seconds would
// otherwise make while they are measured: the VUs each scenario starts
// with and their clients, the recorder's first windows, and a garbage
// collection of everything set-up left behind. What does not fit before
// start is made when it is needed, as without preparing.
func (e *Engine) prepare(ctx context.Context, start time.Time) {
	deadline := start.Add(-prepareMargin)
	if start.IsZero() {
		deadline = time.Now().Add(prepareBudget)
	}
	for _, sc := range e.scens {
		switch sc.s.Load.Model {
		case plan.ArrivalRate:
			sc.prepareArrivals(ctx, deadline)
		case plan.VUs:
			sc.prepareVUs(ctx, deadline)
		}
	}
	if p, ok := e.rec.(sample.Preparer); ok && !past(deadline) {
		p.Prepare()
	}
	if !past(deadline) {
		runtime.GC()   // now, rather than in the first seconds, while they are timed
		retuneGCRoom() // from what this collection found live, not from its finalizer later
	}
	if late := time.Since(start); !start.IsZero() && late > lateFloor {
		e.notify("preparing the VUs ended " + roundDuration(late).String() + " after the planned start: the first iterations started late, and their latency says so")
	}
}

// prepareVUs makes the VUs a closed-model scenario starts with (at most
// maxPrepared), until deadline.
func (sc *scenarioRun) prepareVUs(ctx context.Context, deadline time.Time) {
	n := min(sc.e.opts.Segment.Share(plan.VUsAt(&sc.s.Load, 0)), maxPrepared)
	sc.spare = make([]*vu, 0, n)
	for i := range n {
		if i%vuBatch == 0 && (ctx.Err() != nil || past(deadline)) {
			return
		}
		sc.spare = append(sc.spare, sc.readyVU())
	}
}

// maxPrepared bounds the closed-model VUs made before the start; the rest
// are made as they start, which the spread of their starts allows.
const maxPrepared = 10_000

// takeVU returns a prepared VU, or a new one when none is left. Only the
// executor's goroutine calls it.
func (sc *scenarioRun) takeVU() *vu {
	if n := len(sc.spare); n > 0 {
		v := sc.spare[n-1]
		sc.spare[n-1] = nil
		sc.spare = sc.spare[:n-1]
		return v
	}
	return sc.newVU()
}

// closeSpare releases the prepared VUs that never started.
func (sc *scenarioRun) closeSpare() {
	for _, v := range sc.spare {
		v.close()
	}
	sc.spare = nil
}

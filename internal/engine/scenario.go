package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// scenarioRun is the runtime state of one scenario.
type scenarioRun struct {
	e           *Engine
	s           *plan.Scenario
	feed        *feeder
	dataColumns int
	firstReset  int                          // the first variable slot an iteration empties: after data columns and vu_vars
	active      atomic.Int64                 // VUs in an iteration (open) or alive (closed)
	peak        atomic.Int64                 // the most active at once since the last Gauges
	allocated   atomic.Int64                 // VUs created
	inflight    atomic.Int64                 // requests sent and not yet answered
	heldAt      atomic.Int64                 // open model: the size the VU pool was last held at, when it dropped arrivals
	heldBy      atomic.Uint32                // and why (a holdReason)
	drops       atomic.Pointer[sample.Drops] // open model: its dropped iterations and why, once its schedule ended; nil when none
	schedStop   atomic.Int64                 // open model: 1 + when its schedule stopped, from the run's start; 0 while it runs (stopSchedule)
	pool        *openPool                    // open model: the VUs, prepared before the start
	spare       []*vu                        // closed model: VUs prepared before the start, not started yet
	stopOnce    sync.Once
	stopped     chan struct{} // closed when the scenario must start no more iterations
	// sessionsOnly says the flow has no request step (ws:, sse:, grpc:
	// sessions): its VUs never need a request state (a kilobyte each).
	sessionsOnly bool
}

func newScenarioRun(e *Engine, s *plan.Scenario) *scenarioRun {
	sc := &scenarioRun{e: e, s: s, stopped: make(chan struct{})}
	if s.Data != nil {
		sc.feed = newFeeder(s.Data, e.opts.Segment)
		sc.dataColumns = len(s.Data.Columns)
	}
	sc.firstReset = sc.dataColumns + s.VUVars
	return sc
}

// begin counts one more active VU, and the peak it may make.
func (sc *scenarioRun) begin() {
	n := sc.active.Add(1)
	for p := sc.peak.Load(); n > p && !sc.peak.CompareAndSwap(p, n); p = sc.peak.Load() {
	}
}

// takePeak returns the most VUs active at once since the previous call,
// and starts the next count from those active now. A begin racing with it
// retries its swap after this one, so no peak is lost.
func (sc *scenarioRun) takePeak() int64 {
	for {
		p, a := sc.peak.Load(), sc.active.Load()
		if sc.peak.CompareAndSwap(p, a) {
			return max(p, a)
		}
	}
}

// run waits for the scenario's start time and runs its executor.
func (sc *scenarioRun) run(ctx context.Context) {
	start := sc.e.start.Add(sc.s.StartTime)
	if !sc.sleepUntil(ctx, start) {
		sc.stopSchedule(time.Now())
		sc.release()
		return
	}
	if sc.feed != nil && sc.feed.stream != nil {
		defer sc.feedStream(ctx)() // its VUs are done when the executor returns
	}
	switch sc.s.Load.Model {
	case plan.ArrivalRate:
		sc.runArrivals(ctx, start)
	case plan.VUs:
		sc.runVUs(ctx, start)
	default:
		sc.runIterations(ctx)
	}
}

// release lets go of what was prepared for a scenario that never started.
func (sc *scenarioRun) release() {
	if p := sc.pool; p != nil {
		p.idle.close()
		p.wg.Wait()
		p.interrupt(nil)
	}
	sc.closeSpare()
}

// dataExhausted handles a unique data file running out: the scenario stops,
// or the whole run fails, as the test asks.
func (sc *scenarioRun) dataExhausted() {
	sc.stopOnce.Do(func() {
		close(sc.stopped)
		d := sc.s.Data
		msg := fmt.Sprintf("scenario %s: the %d unique rows of %s ran out", sc.s.Name, sc.feed.hi-sc.feed.lo, d.File)
		if d.StopOnEmpty {
			sc.e.notify(msg + "; the scenario stops")
			return
		}
		sc.e.fail(fmt.Errorf("%s (on_exhausted: fail)", msg))
	})
}

func (sc *scenarioRun) isStopped() bool {
	select {
	case <-sc.stopped:
		return true
	default:
		return false
	}
}

// drain waits for the scenario's VUs to finish their iterations, for at most
// the graceful stop; then it interrupts them (their requests in flight are
// recorded as interrupted) and waits for them to go.
func (sc *scenarioRun) drain(ctx context.Context, wg *sync.WaitGroup, interrupt context.CancelCauseFunc) {
	sc.drainBy(ctx, wg, interrupt, time.Now().Add(sc.s.GracefulStop))
}

// drainBy is drain with the graceful stop ending at deadline.
func (sc *scenarioRun) drainBy(ctx context.Context, wg *sync.WaitGroup, interrupt context.CancelCauseFunc, deadline time.Time) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	if n := sc.inflight.Load(); n > 0 && ctx.Err() == nil && sc.s.GracefulStop > 0 {
		sc.e.notify(sc.label() + flowUnit(sc.s.Flow).Count(n) + " in flight; waiting up to " + sc.s.GracefulStop.String() + " (graceful stop)")
	}
	t := time.NewTimer(max(time.Until(deadline), 0))
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		interrupt(errGracefulStop)
		<-done
	}
}

// label prefixes a notice with the scenario's name when the test has several.
func (sc *scenarioRun) label() string {
	if len(sc.e.scens) < 2 {
		return ""
	}
	return "scenario " + sc.s.Name + ": "
}

// sleepUntil waits until t; it reports false if ctx ended or the scenario
// was stopped first.
func (sc *scenarioRun) sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil && !sc.isStopped()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	case <-sc.stopped:
		return false
	}
}

// stoppable returns a context that ends with ctx or when the scenario is
// stopped, for waits that can watch one context only.
func (sc *scenarioRun) stoppable(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-sc.stopped:
			cancel()
		case <-c.Done():
		}
	}()
	return c, cancel
}

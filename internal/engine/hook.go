package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// RunHook runs a setup: or teardown: flow once, with one VU whose
// variables start with in (a teardown's: the setup's values), and returns
// the values of its variables. Its requests are not measured; the first
// one that fails (no response, or a status the step does not expect), or
// the first failed check or extraction, is its error, and it stops there:
// a load run on a setup that did not happen would measure nothing real.
// It stops at h.Timeout with a HookTimeout. The HookRun says what it sent,
// whichever way it ended.
func RunHook(ctx context.Context, p *plan.Plan, h *plan.Hook, in []string, opts Options) (HookRun, error) {
	hs := &hookSink{}
	began := time.Now()
	opts.Shared = nil
	e := New(&plan.Plan{Insecure: p.Insecure, AllowHosts: p.AllowHosts, Tracing: p.Tracing}, hs, opts)
	e.start = began
	if h.Timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, h.Timeout, HookTimeout{After: h.Timeout})
		defer stop()
	}
	ctx, e.cancel = context.WithCancelCause(ctx)
	defer e.cancel(nil)
	hs.stop = e.cancel
	sc := newScenarioRun(e, &plan.Scenario{ID: -1, Name: "hook", Flow: h.Flow, Vars: h.Vars, VUVars: len(h.Vars)}) // no slot emptied: in stays
	v := sc.newVU()
	defer v.close()
	copy(v.tc.Vars, in)
	v.iterate(ctx, time.Time{})
	run := HookRun{Requests: hs.requests, Took: time.Since(began)}
	if errors.As(hs.err, new(errNotSent)) {
		return run, hs.err
	}
	if hs.err != nil { // the step that failed is the last one sent
		return run, fmt.Errorf("%s %s: %w", v.http.hop.method, plan.Redact(string(v.http.url)), hs.err)
	}
	if err := context.Cause(ctx); err != nil {
		return run, err
	}
	run.Vars = v.tc.Vars
	return run, nil
}

// HookRun is what a setup or teardown did.
type HookRun struct {
	Vars     []string      // its variables' values; nil when it failed
	Requests int64         // the requests it sent, failed ones too: not in the run's figures
	Took     time.Duration // from its start to its end
}

// HookTimeout is the error of a hook stopped at its timeout.
type HookTimeout struct{ After time.Duration }

func (t HookTimeout) Error() string {
	return fmt.Sprintf("still running after %s", units.DurationLiteral(t.After))
}

// hookSink is a hook's VU's sink: it measures nothing, and stops the hook
// at its first failure.
type hookSink struct {
	err      error
	stop     context.CancelCauseFunc
	requests int64 // one VU: no other goroutine counts
}

func (s *hookSink) fail(err error) {
	if s.err == nil {
		s.err = err
		s.stop(err)
	}
}

func (s *hookSink) Sink(int) sample.Sink { return s }
func (s *hookSink) Request(r *sample.Request) {
	s.requests++
	if r.Kind != sample.OK && r.Kind != sample.Interrupted {
		s.fail(fmt.Errorf("a request failed (%s): %s", r.Kind, r.Err))
	}
}
func (s *hookSink) Check(_ int32, _ time.Duration, ok bool) {
	if !ok {
		s.fail(fmt.Errorf("a check or extraction failed"))
	}
}
func (s *hookSink) CheckAnswer(id int32, end time.Duration, ok bool, _ sample.CheckRead) {
	s.Check(id, end, ok)
}
func (s *hookSink) Iteration(int32, time.Duration, time.Duration) {}
func (s *hookSink) Group(int32, time.Duration, time.Duration)     {}
func (s *hookSink) Add(int32, time.Duration, float64)             {}
func (s *hookSink) Dropped(int32, time.Duration)                  {}
func (s *hookSink) Offered(int32, time.Duration, int64)           {}
func (s *hookSink) Lag(int32, time.Duration, time.Duration)       {}
func (s *hookSink) NotSent(_ int32, _ time.Duration, why string) {
	s.fail(errNotSent{errors.New(why)}) // why names the step: RunHook adds nothing
}

package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// RunHook runs a setup: or teardown: flow once, with one VU whose
// variables start with in (a teardown's: the setup's values), and returns
// the values of its variables. Its requests are not measured; the first
// one that fails (no response, or a status the step does not expect), or
// the first failed check or extraction, is its error, and it stops there:
// a load run on a setup that did not happen would measure nothing real.
func RunHook(ctx context.Context, p *plan.Plan, h *plan.Hook, in []string, opts Options) ([]string, error) {
	hs := &hookSink{}
	opts.Shared = nil
	e := New(&plan.Plan{Insecure: p.Insecure, AllowHosts: p.AllowHosts, Tracing: p.Tracing}, hs, opts)
	e.start = time.Now()
	ctx, e.cancel = context.WithCancelCause(ctx)
	defer e.cancel(nil)
	hs.stop = e.cancel
	sc := newScenarioRun(e, &plan.Scenario{ID: -1, Name: "hook", Flow: h.Flow, Vars: h.Vars, VUVars: len(h.Vars)}) // no slot emptied: in stays
	v := sc.newVU()
	defer v.close()
	copy(v.tc.Vars, in)
	v.iterate(ctx, time.Time{})
	if errors.As(hs.err, new(errNotSent)) {
		return nil, hs.err
	}
	if hs.err != nil { // the step that failed is the last one sent
		return nil, fmt.Errorf("%s %s: %w", v.http.hop.method, plan.Redact(string(v.http.url)), hs.err)
	}
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	return v.tc.Vars, nil
}

// hookSink is a hook's VU's sink: it measures nothing, and stops the hook
// at its first failure.
type hookSink struct {
	err  error
	stop context.CancelCauseFunc
}

func (s *hookSink) fail(err error) {
	if s.err == nil {
		s.err = err
		s.stop(err)
	}
}

func (s *hookSink) Sink(int) sample.Sink { return s }
func (s *hookSink) Request(r *sample.Request) {
	if r.Kind != sample.OK && r.Kind != sample.Interrupted {
		s.fail(fmt.Errorf("a request failed (%s): %s", r.Kind, r.Err))
	}
}
func (s *hookSink) Check(_ int32, _ time.Duration, ok bool) {
	if !ok {
		s.fail(fmt.Errorf("a check or extraction failed"))
	}
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

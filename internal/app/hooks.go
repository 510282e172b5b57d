package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// hookSlow is how long a setup or teardown runs before the run says it is
// still running: no live line shows it, and a loop in it once ran silently.
const hookSlow = time.Second

// setup runs the test's setup: flow, before the start is fixed so that
// its time delays no scenario's schedule; every VU reads its values.
func (r *runner) setup(ctx context.Context) error {
	p := r.cfg.Plan
	if p.Setup == nil || r.cfg.Generator != nil {
		return nil
	}
	done := r.hookProgress("setup", p.Setup.Timeout)
	run, err := engine.RunHook(ctx, p, p.Setup, nil, engine.Options{Segment: r.cfg.Segment})
	done()
	if err != nil {
		return fmt.Errorf("setup: %s; the scenarios did not start", hookEnd(ctx, err, run, "setup_timeout"))
	}
	r.shared = run.Vars
	r.notice(hookCount("setup", run))
	return nil
}

// teardown runs the test's teardown: flow after the scenarios, with the
// setup's values; a failure, its timeout or an interrupt is a notice: the
// scenarios had ended, their figures are whole and their verdict stands.
func (r *runner) teardown(ctx context.Context) {
	p := r.cfg.Plan
	if p.Teardown == nil || r.cfg.Generator != nil || ctx.Err() != nil {
		return
	}
	done := r.hookProgress("teardown", p.Teardown.Timeout)
	run, err := engine.RunHook(ctx, p, p.Teardown, r.shared, engine.Options{Segment: r.cfg.Segment})
	done()
	if err != nil {
		r.notice("teardown cut short: " + hookEnd(ctx, err, run, "teardown_timeout") + "; the scenarios had ended: their figures are complete and the verdict is theirs")
		return
	}
	r.notice(hookCount("teardown", run))
}

// hookCount says what a hook that succeeded sent: its requests are not
// in the run's figures, which measure the scenarios.
func hookCount(name string, run engine.HookRun) string {
	return fmt.Sprintf("%s: %s in %s, not in the figures above (they measure the scenarios)",
		name, units.CountOf(run.Requests, "request", "requests"), units.Duration(run.Took))
}

// hookEnd says why a hook stopped, with the requests it had sent: its
// timeout (key names the setting), an interrupt, or a failed step.
func hookEnd(ctx context.Context, err error, run engine.HookRun, key string) string {
	sent := fmt.Sprintf("%s in %s", units.CountOf(run.Requests, "request", "requests"), units.Duration(run.Took))
	var late engine.HookTimeout
	switch {
	case errors.As(err, &late):
		return fmt.Sprintf("stopped at %s (%s) after %s; bound its loops or raise %s",
			key, units.DurationLiteral(late.After), sent, key)
	case ctx.Err() != nil:
		return "interrupted after " + sent
	default:
		return fmt.Sprintf("%v (after %s)", err, sent)
	}
}

// hookProgress says, once a hook has run for hookSlow, that it is still
// running and when it will be stopped; the returned func ends the wait.
func (r *runner) hookProgress(name string, timeout time.Duration) (done func()) {
	if r.cfg.Quiet {
		return func() {}
	}
	stop, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTimer(hookSlow)
		defer t.Stop()
		select {
		case <-t.C:
			fmt.Fprintf(r.cfg.Out, "%s: still running after %s (stopped at %s: %s_timeout)\n", name, units.DurationLiteral(hookSlow), units.DurationLiteral(timeout), name)
		case <-stop:
		}
	}()
	return func() { close(stop); <-ended }
}

// DescribeHooks says, for validate, how long the setup and teardown may
// take, and then the run with them: the scenarios' "at most" leaves them out.
func DescribeHooks(p *plan.Plan) []string {
	var lines []string
	longest := time.Duration(0)
	for _, s := range p.Scenarios { // as the engine adds them up (plan.MaxRunLength)
		longest = max(longest, s.StartTime+s.Load.Duration()+s.Load.GracefulRampDown+s.GracefulStop)
	}
	for _, h := range []struct {
		name string
		h    *plan.Hook
	}{{"setup", p.Setup}, {"teardown", p.Teardown}} {
		if h.h != nil {
			lines = append(lines, fmt.Sprintf("%s: %s, at most %s (%s_timeout)", h.name,
				units.CountOf(int64(len(h.h.Flow)), "step", "steps"), units.DurationLiteral(h.h.Timeout), h.name))
			longest += h.h.Timeout
		}
	}
	if len(lines) > 0 {
		lines = append(lines, "the run: at most "+units.DurationLiteral(longest)+" (the setup, the scenarios with their graceful stops, the teardown)")
	}
	return lines
}

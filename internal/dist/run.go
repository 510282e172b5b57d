package dist

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/units"
)

// coordinate is Coordinate's body: connect, hand out the segments, then
// run as app.Run does with the agents as the generator.
func coordinate(ctx context.Context, cfg Config) (app.RunResult, error) {
	fail := func(err error) (app.RunResult, error) { return app.RunResult{ExitCode: app.ExitRunFailed}, err }
	if len(cfg.Agents) == 0 {
		return fail(errors.New("a distributed run needs at least one agent"))
	}
	p, j, err := loadTest(cfg.TestFile, cfg.TestSource, cfg.Env)
	if err != nil {
		return app.RunResult{ExitCode: app.ExitBadInput}, err
	}
	segs := segments(len(cfg.Agents))
	remotes := make([]*remote, len(cfg.Agents))
	errs := make([]error, len(cfg.Agents))
	done := make(chan int, len(cfg.Agents))
	for i, addr := range cfg.Agents {
		go func() {
			defer func() { done <- i }()
			r, err := dialAgent(ctx, &cfg, "agent "+strconv.Itoa(i+1), addr)
			if err == nil {
				r.seg = segs[i]
				jj := j
				jj.Segment = segs[i].String()
				if err = r.give(ctx, jj, p); err != nil {
					r.nc.Close()
				}
			}
			remotes[i], errs[i] = r, err
		}()
	}
	for range cfg.Agents {
		<-done
	}
	closeAll := func() {
		for _, r := range remotes {
			if r != nil {
				r.nc.Close() // an agent that has not ended stops when its coordinator hangs up
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		closeAll()
		return fail(err)
	}
	defer closeAll()
	out := cfg.Run.Out
	for _, r := range remotes {
		who := r.who.Host
		if r.who.Index != "" {
			who += ", index " + r.who.Index
		}
		fmt.Fprintf(out, "%s: %s (%s, %s), segment %s, clock offset %s (round trip %s)\n", r.name, r.addr, who,
			units.CountOf(int64(r.who.CPUs), "CPU", "CPUs"), r.seg, units.Signed(units.Duration(r.offset.Round(time.Microsecond))), units.Duration(r.rtt))
	}
	wait := cfg.SecondWait
	if wait <= 0 {
		wait = DefaultSecondWait
	}
	rc := cfg.Run
	gen := newGenerator(p, remotes, wait)
	gen.tap, gen.missed, gen.onSec = cfg.tap, cfg.missed, cfg.Progress
	rc.Plan, rc.Generator = p, gen
	return app.Run(ctx, rc)
}

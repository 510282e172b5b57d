package app

import (
	"context"
	"fmt"

	"github.com/loadlens/loadlens/internal/demo"
	"github.com/loadlens/loadlens/internal/plan"
)

// DemoConfig is what `loadlens demo` needs.
type DemoConfig struct {
	Serve bool   // only serve the shop until ctx ends
	Addr  string // where the shop listens; "" picks a free port on 127.0.0.1
	Run   RunConfig
}

// Demo starts the built-in shop and runs the demo test against it, or only
// serves the shop.
func Demo(ctx context.Context, cfg DemoConfig) (RunResult, error) {
	target, err := demo.Start(ctx, demo.Options{Addr: cfg.Addr})
	if err != nil {
		return RunResult{ExitCode: ExitRunFailed}, err
	}
	defer target.Close()
	out := cfg.Run.Out
	if cfg.Serve {
		fmt.Fprintf(out, "demo shop listening on %s (Ctrl-C to stop)\n", target.URL)
		fmt.Fprintf(out, "try: loadlens run %s/products/1 --rate 100 --duration 30s\n", target.URL)
		return RunResult{ExitCode: ExitOK}, target.Wait(ctx)
	}
	fmt.Fprintf(out, "demo shop listening on %s; running the demo test for about 10 seconds\n", target.URL)
	p, err := plan.Parse("demo-shop.yaml", demo.QuickTest(target.URL), nil)
	if err != nil {
		return RunResult{ExitCode: ExitRunFailed}, fmt.Errorf("the built-in demo test: %w", err)
	}
	cfg.Run.Plan = p
	return Run(ctx, cfg.Run)
}

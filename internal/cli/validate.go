package cli

import (
	"context"
	"fmt"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/units"
)

func validateCmd(_ context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "validate", "validate <test.yaml>")
	p, path, code := testFileArg(e, fs, args, "validate takes one test file")
	if code != app.ExitOK {
		return code
	}
	fmt.Fprintf(e.stdout, "%s: ok — %s, %s, %s, %s\n", path,
		units.CountOf(int64(len(p.Scenarios)), "scenario", "scenarios"), units.CountOf(int64(len(p.Layout.Endpoints)), "endpoint", "endpoints"),
		units.CountOf(int64(len(p.Layout.Checks)), "check", "checks"), units.CountOf(int64(len(p.Thresholds)), "threshold", "thresholds"))
	for _, s := range p.Scenarios {
		fmt.Fprintf(e.stdout, "  %s: %s\n", s.Name, app.DescribeLoad(&s.Load))
	}
	for _, line := range app.DescribeHooks(p) {
		fmt.Fprintf(e.stdout, "  %s\n", line)
	}
	return app.ExitOK
}

package cli

import (
	"context"
	"fmt"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/units"
)

func validateCmd(_ context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "validate", "validate <test.yaml>")
	var envs listFlag
	fs.Var(&envs, "e", "KEY=VALUE environment variable for {{ env.KEY }} templates (repeatable)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("validate takes one test file"))
	}
	p, err := loadTestFile(pos[0], envs)
	if err != nil {
		return fail(e, err)
	}
	fmt.Fprintf(e.stdout, "%s: ok — %s, %s, %s, %s\n", pos[0],
		units.CountOf(int64(len(p.Scenarios)), "scenario", "scenarios"), units.CountOf(int64(len(p.Layout.Endpoints)), "endpoint", "endpoints"),
		units.CountOf(int64(len(p.Layout.Checks)), "check", "checks"), units.CountOf(int64(len(p.Thresholds)), "threshold", "thresholds"))
	for _, s := range p.Scenarios {
		fmt.Fprintf(e.stdout, "  %s: %s\n", s.Name, app.DescribeLoad(&s.Load))
	}
	return app.ExitOK
}

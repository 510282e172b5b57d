package cli

import (
	"context"
	"fmt"

	"github.com/loadlens/loadlens/internal/app"
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
	fmt.Fprintf(e.stdout, "%s: ok — %d scenarios, %d endpoints, %d checks, %d thresholds\n",
		pos[0], len(p.Scenarios), len(p.Layout.Endpoints), len(p.Layout.Checks), len(p.Thresholds))
	for _, s := range p.Scenarios {
		fmt.Fprintf(e.stdout, "  %s: %s\n", s.Name, app.DescribeLoad(&s.Load))
	}
	return app.ExitOK
}

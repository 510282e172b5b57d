package cli

import (
	"context"

	"github.com/loadlens/loadlens/internal/app"
)

func demoCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "demo", "demo [--serve] [--addr ADDR]")
	serve := fs.Bool("serve", false, "only start the demo shop, for your own tests")
	addr := fs.String("addr", "", "address for the shop (default: a free port on 127.0.0.1; with --serve, 127.0.0.1:8080)")
	results := fs.String("results", app.DefaultResults, "parent directory of run directories")
	quiet := fs.Bool("quiet", false, "no live progress line")
	var out outputFlags
	out.register(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) > 0 {
		return fail(e, usageErr("demo takes no arguments"))
	}
	if *serve && *addr == "" {
		*addr = "127.0.0.1:8080"
	}
	dash, err := out.dashboard()
	if err != nil {
		return fail(e, err)
	}
	res, err := app.Demo(ctx, app.DemoConfig{Serve: *serve, Addr: *addr, Run: app.RunConfig{
		ResultsDir: *results, Out: e.stdout, TTY: e.tty, Quiet: *quiet, JUnit: out.junit, SummaryMD: out.summaryMD,
		Dashboard: dash, Args: append([]string{"loadlens"}, e.args...), Version: app.Version}})
	if err != nil {
		fail(e, err)
		return max(res.ExitCode, app.ExitRunFailed)
	}
	return res.ExitCode
}

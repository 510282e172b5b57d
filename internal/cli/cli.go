// Package cli is loadlens's command line: subcommands and flags become
// app configurations, and outcomes become exit codes.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/plan"
)

// env carries what every command may use.
type env struct {
	stdout, stderr io.Writer
	tty            bool
	args           []string
	help           bool        // a command's usage was asked for with -h: the command exits 0
	stopWatched    atomic.Bool // the command now stops by itself on a signal (see watchStop)
}

// watchStop says that the command has reached the part that watches its
// context: from here a signal lets it stop by itself, writing what it
// measured, instead of ending it at once.
func (e *env) watchStop() { e.stopWatched.Store(true) }

type command struct {
	name, usage, help string
	run               func(ctx context.Context, e *env, args []string) int
}

func commands() []command {
	return []command{
		{"run", "run <test.yaml | URL> [flags]", "run a load test from a test file, or against one URL", runCmd},
		{"validate", "validate <test.yaml>", "check a test file without running it", validateCmd},
		{"runs", "runs [--results DIR]", "list past runs, newest first", runsCmd},
		{"history", historyUsage, "each test's runs over time: trends and change points (--fail-on-change gates CI)", historyCmd},
		{"summary", "summary <run-dir>", "print a past run's summary from its run.db", summaryCmd},
		{"report", "report <run-dir>", "rebuild a past run's report.html from its run.db", reportCmd},
		{"export", "export <run-dir> --format jsonl|csv", "write a past run's per-second data per endpoint and scenario", exportCmd},
		{"estimate", "estimate --dau N --visits N ... [flags]", "from business numbers to requests/s, VUs and instances, every step shown", estimateCmd},
		{"capacity", "capacity <test.yaml> [flags]", "search for the highest rate the target sustains within the test's thresholds", capacityCmd},
		{"compare", "compare <baseline-run> <run>... [flags]", "compare runs with statistics; --fail-on-regression gates CI", compareCmd},
		{"import", importUsage, "turn an OpenAPI spec, a HAR recording, curl lines or a k6 script into a test file", importCmd},
		{"agent", agentUsage, "serve distributed runs: run the segment of a test a coordinator gives (needs its token)", agentCmd},
		{"mock", mockUsage, "serve a mock of the external systems a service calls (latency, errors, metrics)", mockCmd},
		{"k8s", k8sUsage, "run a test over agent pods on Kubernetes, or print their objects", k8sCmd},
		{"demo", "demo [--quick] [--traces] [--serve] [--addr ADDR]", "run a short test against the built-in demo shop (or only serve it)", demoCmd},
		{"version", "version | --version", "print the version (a release's, or the commit it was built from)", versionCmd},
		{"completion", completionUsage, "print shell completion for bash, zsh or fish: source <(loadlens completion bash)", completionCmd},
	}
}

// subcommands are the commands that a command's own run function
// dispatches to, listed in the help under it.
func subcommands(name string) []command {
	if name == "import" {
		return importKinds
	}
	if name == "k8s" {
		return k8sCommands()
	}
	if name == "demo" {
		return []command{{"demo seed", "demo seed --sqlite FILE | --postgres DSN", "fill a database the demo shop then serves (--rows N)", demoSeedCmd}}
	}
	return nil
}

// Main runs the command line args (without the program name) and returns
// the process exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr, args: args}
	if f, ok := stdout.(*os.File); ok {
		e.tty = live.IsTerminal(f)
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return app.ExitBadInput
		}
		return app.ExitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		return versionCmd(ctx, e, args[1:])
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return runCommand(ctx, e, c, args[1:])
		}
	}
	fmt.Fprintf(stderr, "loadlens: unknown command %q%s\n\n", args[0], commandHint(args[0]))
	usage(stderr)
	return app.ExitBadInput
}

// runCommand runs c and returns its exit code. At the first signal (ctx
// done) it returns at once, with ExitRunFailed, unless the command has
// called watchStop: reading a file, importing, comparing or rendering may
// take long (a pipe that never ends, a hostile spec), and what it would have
// written is of no use half done, so nothing waits for it.
func runCommand(ctx context.Context, e *env, c command, args []string) int {
	done := make(chan int, 1) // the command may finish after we stop waiting: it must not block
	go func() { done <- c.run(ctx, e, args) }()
	select {
	case code := <-done:
		return exitCode(e, code)
	case <-ctx.Done():
	}
	if e.stopWatched.Load() {
		return exitCode(e, <-done)
	}
	fmt.Fprintf(e.stderr, "loadlens: %s stopped (%v)\n", c.name, context.Cause(ctx))
	return app.ExitRunFailed
}

// exitCode is a finished command's exit code: 0 when it only printed its help.
func exitCode(e *env, code int) int {
	if e.help {
		return app.ExitOK // help was asked for: not an error
	}
	return code
}

// commandHint points a command another tool, or the docs' own words, would
// call by another name at loadlens's.
func commandHint(name string) string {
	switch name {
	case "plan", "calc", "size":
		return `: planning from business numbers is "loadlens estimate" (estimate -h)`
	case "list", "ls":
		return `: past runs are listed by "loadlens runs"`
	case "diff":
		return `: runs are compared by "loadlens compare"`
	}
	return ""
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "loadlens: load testing that explains its numbers\n\nusage:")
	for _, c := range commands() {
		writeCommandLine(w, c.usage, c.help)
		for _, s := range subcommands(c.name) {
			writeCommandLine(w, s.usage, s.help)
		}
	}
	fmt.Fprintf(w, "\nexit codes: %d passed · %d a threshold failed · %d a gate could not judge (compare, history,\n  capacity) · %d bad usage or test file · %d run failed or stopped\n",
		app.ExitOK, app.ExitThresholdFailed, app.ExitNotJudged, app.ExitBadInput, app.ExitRunFailed)
	fmt.Fprintln(w, "`loadlens <command> -h` lists a command's flags")
}

// newFlagSet returns a flag set that reports errors instead of exiting.
// Its usage, printed for -h, goes to stdout and makes the command exit 0.
func newFlagSet(e *env, name, usageLine string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		e.help = true
		fmt.Fprintf(e.stdout, "usage: loadlens %s\n\nflags:\n", usageLine)
		printFlags(e.stdout, fs)
	}
	return fs
}

// versionCmd prints the version.
func versionCmd(_ context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "version", "version")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) > 0 {
		return fail(e, usageErr("version takes no arguments"))
	}
	fmt.Fprintln(e.stdout, "loadlens", app.Version)
	return app.ExitOK
}

// fail prints err the way the user should read it and returns its exit
// code, as app maps it.
func fail(e *env, err error) int {
	var perrs plan.Errors
	var perr *plan.Error
	switch {
	case errors.As(err, &perrs):
		for _, pe := range perrs {
			fmt.Fprintln(e.stderr, pe.Error())
		}
	case errors.As(err, &perr):
		fmt.Fprintln(e.stderr, perr.Error())
	case errors.Is(err, app.ErrUsage):
		fmt.Fprintln(e.stderr, "loadlens:", strings.TrimPrefix(err.Error(), app.ErrUsage.Error()+": "))
	default:
		fmt.Fprintln(e.stderr, "loadlens:", err)
	}
	return app.ExitCodeOf(err)
}

func usageErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", app.ErrUsage, fmt.Sprintf(format, args...))
}

package cli

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"path/filepath"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/runs"
)

func runsCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "runs", "runs [--results DIR]")
	results := fs.String("results", app.DefaultResults, "parent directory of run directories")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) > 0 {
		return fail(e, usageErr("runs takes no arguments; use --results DIR"))
	}
	list, err := runs.ListRuns(ctx, *results)
	if err != nil && !errors.Is(err, iofs.ErrNotExist) { // no results folder yet: no runs, not a fault
		return fail(e, err)
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stdout, "no runs in %s\n", shownDir(*results))
		return app.ExitOK
	}
	if err := runs.WriteRuns(e.stdout, list); err != nil {
		return fail(e, err)
	}
	return app.ExitOK
}

func summaryCmd(_ context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "summary", "summary <run-dir> [--json]")
	asJSON := fs.Bool("json", false, "print summary.json instead of the table")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("summary takes one run directory, e.g. results/20261122-101500-first-page"))
	}
	if err := app.Summary(e.stdout, pos[0], *asJSON); err != nil {
		return fail(e, err)
	}
	return app.ExitOK
}

func reportCmd(_ context.Context, e *env, args []string) int {
	const usageLine = "report <run-dir> [--out FILE] [--junit FILE] [--summary-md FILE]"
	fs := newFlagSet(e, "report", usageLine)
	out := fs.String("out", "", "write the HTML report here (default: report.html in the run directory)")
	junit := fs.String("junit", "", "also write JUnit XML here")
	md := fs.String("summary-md", "", "also write a Markdown summary here")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("report takes one run directory, e.g. results/20261122-101500-first-page"))
	}
	path, err := app.Report(app.ReportConfig{Run: pos[0], Outputs: app.Outputs{HTML: *out, JUnit: *junit, SummaryMD: *md}})
	if err != nil {
		return fail(e, err)
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", path)
	return app.ExitOK
}

// shownDir writes a relative directory as "./results", so that it reads as
// a path in the current folder.
func shownDir(dir string) string {
	if filepath.IsAbs(dir) || strings.HasPrefix(dir, ".") {
		return dir
	}
	return "." + string(filepath.Separator) + dir
}

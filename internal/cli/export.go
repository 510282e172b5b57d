package cli

import (
	"context"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/runs"
)

func exportCmd(_ context.Context, e *env, args []string) int {
	const usageLine = "export <run-dir> --format jsonl|csv [--out FILE]"
	fs := newFlagSet(e, "export", usageLine)
	format := fs.String("format", "jsonl", "jsonl (a JSON object per line) or csv")
	out := fs.String("out", "", "write here instead of to standard output")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("export takes one run directory, e.g. results/20261122-101500-first-page"))
	}
	if err := runs.Export(runs.ExportConfig{Run: pos[0], Format: *format, Out: *out, W: e.stdout}); err != nil {
		return fail(e, err)
	}
	return app.ExitOK
}

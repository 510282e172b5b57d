package cli

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/historyrun"
)

const historyUsage = "history [test] [--html] [--fail-on-change FIGURE] [--store postgres://…]"

func historyCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "history", historyUsage)
	results := fs.String("results", app.DefaultResults, "parent directory of run directories (its history.db is rebuilt when missing)")
	html := fs.Bool("html", false, "also write history.html: trend charts, change points marked, each run linked to its report")
	out := fs.String("out", "", "where --html writes (default: history.html in the results directory)")
	failOn := fs.String("fail-on-change", "", "exit 99 when the newest runs start a change for the worse of this figure: p(50), p(95), p(99), rps or errors; exit 3 when they cannot be judged (fewer than 6 analysed runs, or the newest left out; see --allow-not-judged)")
	allow := fs.Bool("allow-not-judged", false, "--fail-on-change: let a gate whose newest runs cannot be judged pass with a note (exit 0); by default it exits 3")
	within := fs.Int("change-within", 5, "--fail-on-change: how many of the newest runs count as new")
	store := fs.String("store", "", "read the history of a shared PostgreSQL store (postgres://…) instead of the results directory")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) > 1 {
		if *html && strings.HasSuffix(pos[len(pos)-1], ".html") {
			return fail(e, usageErr("history takes at most one test name; --html takes no file: write it with --out %s", pos[len(pos)-1]))
		}
		return fail(e, usageErr("history takes at most one test name"))
	}
	cfg := historyrun.HistoryConfig{Results: *results, Store: *store, Within: *within, AllowNotJudged: *allow, Out: e.stdout}
	if len(pos) == 1 {
		cfg.Test = pos[0]
	}
	if *failOn != "" {
		f, err := history.ParseFigure(*failOn)
		if err != nil {
			return fail(e, usageErr("--fail-on-change: %v", err))
		}
		cfg.FailOn = &f
	}
	if *within < 1 {
		return fail(e, usageErr("--change-within must be at least 1"))
	}
	if err := checkStore(*store); err != nil {
		return fail(e, err)
	}
	if *html || *out != "" {
		cfg.HTML = *out
		if cfg.HTML == "" {
			cfg.HTML = filepath.Join(*results, "history.html")
		}
	}
	e.watchStop()
	code, err := historyrun.History(ctx, cfg)
	if err != nil {
		fail(e, err)
		return max(code, app.ExitCodeOf(err))
	}
	return code
}

// checkStore refuses a --store that is not a PostgreSQL URL, before
// anything runs.
func checkStore(dsn string) error {
	if dsn == "" || strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return nil
	}
	return usageErr("--store: want a PostgreSQL URL, postgres://user@host/db")
}

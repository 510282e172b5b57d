package historyrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"sort"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/historypg"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
)

// HistoryConfig is what `loadlens history` was asked.
type HistoryConfig struct {
	Results string // the results folder whose runs (and history.db) are read
	Store   string // a shared store (postgres://…) to read instead; "" the results folder
	Test    string // one test's name; "" every test
	HTML    string // also write history.html here; "" none
	// FailOn is a figure (p(95), rps…): the command exits
	// ExitThresholdFailed when the newest Within runs of a test start a
	// change point of it for the worse. nil: never.
	FailOn *history.Figure
	Within int
	// AllowNotJudged lets a gate whose newest runs cannot be judged (too
	// few, or left out) pass with a note; without it the gate exits
	// ExitNotJudged.
	AllowNotJudged bool
	Out            io.Writer
}

// History prints the history of the runs in a results folder or a shared
// store, writes history.html when asked, and judges --fail-on-change. It
// returns the exit code.
func History(ctx context.Context, cfg HistoryConfig) (int, error) {
	runs, err := historyRuns(ctx, cfg)
	if err != nil {
		return app.ExitRunFailed, err
	}
	m := history.DefaultMethod
	tests := history.Group(runs, m)
	if cfg.Test != "" {
		t, err := findTest(tests, cfg.Test, cfg)
		if err != nil {
			return app.ExitBadInput, err
		}
		tests = []*history.Test{t}
	}
	if len(tests) == 0 {
		fmt.Fprintf(cfg.Out, "no runs in %s\n", historySource(cfg))
		return app.ExitOK, nil
	}
	if cfg.Test != "" {
		err = report.WriteHistory(cfg.Out, tests[0], m)
	} else {
		err = report.WriteHistoryList(cfg.Out, tests)
	}
	if err != nil {
		return app.ExitRunFailed, err
	}
	if cfg.HTML != "" {
		if err := writeHistoryHTML(cfg, tests, m); err != nil {
			return app.ExitRunFailed, err
		}
	}
	return gateChanges(cfg, tests), nil
}

// historyRuns reads the runs from the shared store or the results folder.
func historyRuns(ctx context.Context, cfg HistoryConfig) ([]history.Run, error) {
	if cfg.Store != "" {
		return sharedRuns(ctx, cfg.Store)
	}
	runs, skipped, err := app.SyncIndex(ctx, cfg.Results)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, nil // no results folder yet: no runs, not a fault
	}
	for _, s := range skipped {
		fmt.Fprintf(cfg.Out, "note: skipped %s\n", s)
	}
	return runs, err
}

// findTest is the test of that name, or an error naming those there are.
func findTest(tests []*history.Test, name string, cfg HistoryConfig) (*history.Test, error) {
	names := make([]string, 0, len(tests))
	for _, t := range tests {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: no runs of test %q in %s: there are no runs", app.ErrUsage, name, historySource(cfg))
	}
	return nil, fmt.Errorf("%w: no runs of test %q in %s; its tests are: %s", app.ErrUsage, name, historySource(cfg), strings.Join(names, ", "))
}

func historySource(cfg HistoryConfig) string {
	if cfg.Store != "" {
		return "the store"
	}
	return cfg.Results
}

// gateChanges prints the change points --fail-on-change fails on and
// returns the exit code: ExitThresholdFailed when there are any (or
// newest runs, too few for one, past the spread of their level), else ExitNotJudged when a
// test's newest runs cannot be judged (unless allowed), else ExitOK.
func gateChanges(cfg HistoryConfig, tests []*history.Test) int {
	if cfg.FailOn == nil {
		return app.ExitOK
	}
	f, regressed, unjudged := *cfg.FailOn, false, false
	for _, t := range tests {
		for _, v := range judgeTest(t, f, cfg.Within) {
			if v.worse {
				fmt.Fprint(cfg.Out, units.Wrap("change for the worse in "+t.Name+": "+v.text, units.Columns, "", "  "))
				regressed = true
				continue
			}
			fmt.Fprint(cfg.Out, units.Wrap("not judged: "+v.text, units.Columns, "", "  "))
			unjudged = true
		}
	}
	switch {
	case regressed:
		return app.ExitThresholdFailed
	case unjudged && !cfg.AllowNotJudged:
		fmt.Fprint(cfg.Out, units.Wrap("✗ not judged fails (exit 3): a gate that passes what it cannot test is no gate; "+
			"add runs, run on a quiet host, or pass --allow-not-judged to let it pass", units.Columns, "", "  "))
		return app.ExitNotJudged
	case unjudged:
		fmt.Fprintln(cfg.Out, "? not judged: passes as --allow-not-judged asks (exit 0)")
		return app.ExitOK
	}
	// a change point cannot start in the newest MinRuns − 1 runs: say what judged them
	fmt.Fprint(cfg.Out, units.Wrap(fmt.Sprintf("no change of %s for the worse: no change point starts in the newest %d runs, "+
		"and the newest runs lie within the spread of their level's runs before them (a change point needs %d runs after it "+
		"to be confirmed; until then each new run is set against that spread)", f, cfg.Within, history.DefaultMethod.MinRuns),
		units.Columns, "", "  "))
	return app.ExitOK
}

// sharedRuns reads every run of the shared store at dsn.
func sharedRuns(ctx context.Context, dsn string) ([]history.Run, error) {
	s, err := historypg.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	runs, err := s.Runs(ctx)
	return runs, errors.Join(err, s.Close())
}

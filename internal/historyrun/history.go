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
	Out    io.Writer
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
// returns the exit code: ExitThresholdFailed when there are any.
func gateChanges(cfg HistoryConfig, tests []*history.Test) int {
	if cfg.FailOn == nil {
		return app.ExitOK
	}
	code := app.ExitOK
	for _, t := range tests {
		if why := leftOut(&t.Newest); why != "" {
			fmt.Fprintf(cfg.Out, "not judged: %s's newest run, %s, is left out of change points: %s; a gate that passes what it cannot test is no gate\n",
				t.Name, t.Newest.ID, why)
			code = app.ExitThresholdFailed
		}
		s := t.Current()
		for _, c := range s.Recent(*cfg.FailOn, cfg.Within) {
			fmt.Fprintf(cfg.Out, "change for the worse in %s: %s\n", t.Name, report.ChangeText(s, c))
			code = app.ExitThresholdFailed
		}
	}
	if code == app.ExitOK {
		fmt.Fprintf(cfg.Out, "no change of %s for the worse starts in the newest %d runs\n", *cfg.FailOn, cfg.Within)
	}
	return code
}

// leftOut says why a run's figures count for no change point, or "".
func leftOut(r *history.Run) string {
	switch {
	case r.Capacity != nil || r.Analysed():
		return ""
	case r.Disturbed != "":
		return "its own diagnosis found " + r.Disturbed + " (the load generator or its host limited it): its figures are not the target's"
	}
	return "it did not complete (" + r.Status + ")"
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

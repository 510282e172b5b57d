package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/store"
)

// CompareConfig is what `loadlens compare` needs.
type CompareConfig struct {
	Runs    []string // run directories (or run.db files); the first is the baseline
	Format  string   // text, md, json or html
	Out     io.Writer
	Options compare.Options
	Gates   []string // --fail-on-regression expressions
}

// Compare compares runs against the first and prints the comparison; it
// returns ExitThresholdFailed when a regression gate fails.
func Compare(cfg CompareConfig) (int, error) {
	if len(cfg.Runs) < 2 {
		return ExitBadInput, errors.New("compare needs at least two runs: a baseline and one to compare with it")
	}
	gates, err := compare.ParseGates(cfg.Gates)
	if err != nil {
		return ExitBadInput, fmt.Errorf("--fail-on-regression: %w", err)
	}
	inputs := make([]compare.Input, len(cfg.Runs))
	for i, path := range cfg.Runs {
		db := runDB(path)
		run, err := readRun(db)
		if err != nil {
			return ExitRunFailed, err
		}
		inputs[i] = compare.Input{Name: filepath.Base(filepath.Dir(db)), Run: run,
			Snapshots: func(fn func(*metrics.Snapshot) error) error { return readSnapshots(db, fn) }}
	}
	rep, err := compare.Compare(inputs, cfg.Options)
	if err != nil {
		return ExitRunFailed, err
	}
	switch cfg.Format {
	case "", "text":
		err = compare.WriteText(cfg.Out, rep)
	case "md", "markdown":
		err = compare.WriteMarkdown(cfg.Out, rep)
	case "json":
		err = compare.WriteJSON(cfg.Out, rep)
	case "html":
		err = compare.WriteHTML(cfg.Out, rep)
	default:
		return ExitBadInput, fmt.Errorf("--format %q: want text, md, json or html", cfg.Format)
	}
	if err != nil {
		return ExitRunFailed, err
	}
	if len(gates) == 0 {
		return ExitOK, nil
	}
	results := rep.Check(gates)
	w := cfg.Out
	if cfg.Format == "json" || cfg.Format == "html" {
		w = os.Stderr // keep the document on stdout parseable
	}
	fmt.Fprintln(w, "\nregression gates:")
	for _, g := range results {
		mark := "✓"
		if g.Failed {
			mark = "✗"
		}
		fmt.Fprintf(w, "  %s %s  %s: %s\n", mark, g.Gate, g.Run, g.Reason)
	}
	if compare.AnyFailed(results) {
		return ExitThresholdFailed, nil
	}
	return ExitOK, nil
}

// runDB returns the run.db of a run directory, or path itself.
func runDB(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, "run.db")
	}
	return path
}

func readRun(db string) (*metrics.Run, error) {
	rd, err := store.Open(db)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.Run()
}

// readSnapshots hands every stored second of a run.db to fn, in order.
func readSnapshots(db string, fn func(*metrics.Snapshot) error) error {
	rd, err := store.Open(db)
	if err != nil {
		return err
	}
	defer rd.Close()
	return rd.Snapshots(fn)
}

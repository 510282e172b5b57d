package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/historystore"
	"github.com/loadlens/loadlens/internal/report"
)

// storeTimeout bounds what recording a run in a history store may take
// after the run: the run is kept whatever happens there.
const storeTimeout = 30 * time.Second

// recordHistory adds a run that just ended to its results folder's index
// and, with --store, to the shared store. The index is only a cache: when
// it cannot be written, `history` reads the run directory later; the
// store was asked for, and its error is the run's.
func recordHistory(ctx context.Context, cfg RunConfig, in *report.Input, exitCode int) (indexErr, storeErr error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout) // a Ctrl-C'd run is recorded too
	defer cancel()
	rec := historyRecord(in)
	rec.ExitCode = exitCode // as run.db's finish keeps it
	indexErr = putIndex(ctx, in.Dir, rec)
	if cfg.Store != "" {
		if storeErr = putShared(ctx, cfg.Store, rec); storeErr != nil {
			storeErr = fmt.Errorf("--store: the run was not recorded: %w", storeErr)
		}
	}
	return indexErr, storeErr
}

func putIndex(ctx context.Context, dir string, rec history.Run) error {
	stamp, err := stampOf(dir)
	if err != nil {
		return err
	}
	ix, err := historystore.OpenIndex(filepath.Join(filepath.Dir(dir), historystore.IndexFile))
	if err != nil {
		return err
	}
	err = ix.Put(ctx, historystore.Entry{Dir: rec.ID, Stamp: stamp, Run: rec})
	return errors.Join(err, ix.Close())
}

// stampOf is the state of a run directory's run.db, or of the history
// record file of a directory without one (a capacity search's).
func stampOf(dir string) (historystore.Stamp, error) {
	fi, err := os.Stat(filepath.Join(dir, "run.db"))
	if errors.Is(err, os.ErrNotExist) {
		fi, err = os.Stat(filepath.Join(dir, HistoryFile))
	}
	if err != nil {
		return historystore.Stamp{}, err
	}
	return historystore.Stamp{Size: fi.Size(), ModNano: fi.ModTime().UnixNano()}, nil
}

// maxHistoryRuns bounds how many run directories history reads.
const maxHistoryRuns = 100_000

// SyncIndex brings results/history.db up to date with the run directories
// (creating it when missing) and returns every run's record with its
// directory: a run directory new or changed since it was indexed is read
// again, one gone is forgotten. Runs that cannot be read are skipped and
// said in skipped.
func SyncIndex(ctx context.Context, results string) (runs []history.Run, skipped []string, err error) {
	dirs, err := runDirs(results)
	if err != nil {
		return nil, nil, err
	}
	ix, err := historystore.OpenIndex(filepath.Join(results, historystore.IndexFile))
	if err != nil {
		return nil, nil, err
	}
	defer ix.Close()
	entries, err := ix.Entries(ctx)
	if err != nil {
		return nil, nil, err
	}
	known := map[string]historystore.Entry{}
	for _, e := range entries {
		known[e.Dir] = e
	}
	var fresh []historystore.Entry
	for name, stamp := range dirs {
		e, ok := known[name]
		delete(known, name)
		if !ok || e.Stamp != stamp {
			if e, err = readEntry(results, name, stamp); err != nil {
				skipped = append(skipped, fmt.Sprintf("%s: %v", name, err))
				continue
			}
			fresh = append(fresh, e)
		}
		e.Run.Dir = filepath.Join(results, name)
		runs = append(runs, e.Run)
	}
	if err := ix.Put(ctx, fresh...); err != nil {
		return nil, nil, err
	}
	for name := range known {
		if err := ix.Delete(ctx, name); err != nil {
			return nil, nil, err
		}
	}
	history.SortOldestFirst(runs)
	return runs, skipped, nil
}

// runDirs lists the run directories under results (those with a run.db,
// or a history record file) and their stamps.
func runDirs(results string) (map[string]historystore.Stamp, error) {
	entries, err := os.ReadDir(results)
	if err != nil {
		return nil, fmt.Errorf("results directory: %w", err)
	}
	out := map[string]historystore.Stamp{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if len(out) == maxHistoryRuns {
			return nil, fmt.Errorf("%s holds more than %d run directories", results, maxHistoryRuns)
		}
		if st, err := stampOf(filepath.Join(results, e.Name())); err == nil {
			out[e.Name()] = st
		}
	}
	return out, nil
}

// readEntry reads a run directory's record from its run.db, or from its
// history record file when it has none.
func readEntry(results, name string, stamp historystore.Stamp) (historystore.Entry, error) {
	if _, err := os.Stat(filepath.Join(results, name, "run.db")); errors.Is(err, os.ErrNotExist) {
		rec, err := readHistoryFile(filepath.Join(results, name))
		return historystore.Entry{Dir: name, Stamp: stamp, Run: rec}, err
	}
	in, err := LoadRun(filepath.Join(results, name))
	if err != nil {
		return historystore.Entry{}, err
	}
	return historystore.Entry{Dir: name, Stamp: stamp, Run: historyRecord(in)}, nil
}

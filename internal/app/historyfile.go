package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/boundedfile"
	"github.com/loadlens/loadlens/internal/history"
)

// HistoryFile is the history record of a directory that has no run.db of
// its own (a capacity search's, whose steps are runs below it): history's
// index is rebuilt from it as from a run.db.
const HistoryFile = "history.json"

// maxHistoryFile bounds a history record file as read: one edited by hand
// must not make history read without end.
const maxHistoryFile = 4 << 20

// RecordHistory keeps rec as the record of dir, a directory in a results
// folder: in dir's history record file, then in the folder's index (a
// cache; `history` reads the file when the index cannot be written), and
// with store (postgres://…) in that shared store. A store asked for and
// not written is storeErr: the caller's job must know.
func RecordHistory(ctx context.Context, dir string, rec history.Run, store string) (fileErr, storeErr error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout) // an interrupted search is recorded too
	defer cancel()
	if store != "" {
		if storeErr = putShared(ctx, store, rec); storeErr != nil {
			storeErr = fmt.Errorf("--store: not recorded: %w", storeErr)
		}
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err, storeErr
	}
	if err := os.WriteFile(filepath.Join(dir, HistoryFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("%s: %w", HistoryFile, err), storeErr
	}
	return putIndex(ctx, dir, rec), storeErr
}

// CheckStore connects to the shared store at dsn, so that a wrong
// address fails a command before its work rather than after.
func CheckStore(ctx context.Context, dsn string) error { return checkShared(ctx, dsn) }

// readHistoryFile reads dir's history record file.
func readHistoryFile(dir string) (history.Run, error) {
	var rec history.Run
	b, err := boundedfile.Read(filepath.Join(dir, HistoryFile), maxHistoryFile, true)
	var tl *boundedfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return rec, fmt.Errorf("%s: more than %d bytes", HistoryFile, maxHistoryFile)
	case err != nil:
		return rec, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, fmt.Errorf("%s: %w", HistoryFile, err)
	}
	if rec.ID == "" {
		return rec, errors.New(HistoryFile + ": no run id")
	}
	return rec, nil
}

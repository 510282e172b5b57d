// Package historystore keeps what history knows of runs: the index in a
// results folder (history.db, SQLite), which is a cache rebuilt from the
// run directories, and the interface a shared store (PostgreSQL, in
// package historypg) implements.
package historystore

import (
	"context"

	"github.com/loadlens/loadlens/internal/history"
)

// Store keeps runs' history records. Put replaces a run's earlier record
// (same host and ID), so that writing one run twice, or from two writers
// at once, leaves one record.
type Store interface {
	Put(ctx context.Context, runs ...history.Run) error
	Runs(ctx context.Context) ([]history.Run, error)
	Close() error
}

// maxRecord bounds one run's record as read back: a store edited by hand,
// or another program's, must not make history read without end.
const maxRecord = 4 << 20

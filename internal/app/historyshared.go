package app

import (
	"context"
	"errors"

	"github.com/loadlens/loadlens/internal/history"
)

// putShared records a run in the shared store at dsn.
func putShared(ctx context.Context, dsn string, rec history.Run) error {
	return errors.New("--store: not implemented yet")
}

// sharedRuns reads every run of the shared store at dsn.
func sharedRuns(ctx context.Context, dsn string) ([]history.Run, error) {
	return nil, errors.New("--store: not implemented yet")
}

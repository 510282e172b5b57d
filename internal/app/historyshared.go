package app

import (
	"context"
	"errors"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/historypg"
)

// checkShared connects to the shared store at dsn before a run, so that a
// wrong address fails the command at once rather than after the run.
func checkShared(ctx context.Context, dsn string) error {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	s, err := historypg.Open(ctx, dsn)
	if err != nil {
		return err
	}
	return s.Close()
}

// putShared records a run in the shared store at dsn.
func putShared(ctx context.Context, dsn string, rec history.Run) error {
	s, err := historypg.Open(ctx, dsn)
	if err != nil {
		return err
	}
	rec.Dir = "" // a path on this machine means nothing to the others
	return errors.Join(s.Put(ctx, rec), s.Close())
}

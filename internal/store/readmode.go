package store

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// readParams returns the DSN parameters a Reader opens path with. A run
// being written (or whose writer was killed) has a -wal file: it is read
// through the WAL, sharing the writer's -wal and -shm. Otherwise nobody
// writes the database (Create makes only new files), so it is opened
// immutable: SQLite then creates no -wal or -shm file, which also makes a
// run directory the user cannot write (a CI artifact) readable.
func readParams(path string) url.Values {
	params := url.Values{"mode": {"ro"}, "_pragma": {"busy_timeout(5000)"}}
	if !liveWAL(path) {
		params.Set("immutable", "1")
	}
	return params
}

// liveWAL reports whether path's -wal file may hold pages or belong to a
// writer. An empty -wal whose -shm this user cannot write (as older
// readers left in artifacts) holds nothing: every page is in run.db.
func liveWAL(path string) bool {
	fi, err := os.Lstat(path + "-wal")
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil || fi.Size() > 0 {
		return true
	}
	shm, err := os.OpenFile(path+"-shm", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	_ = shm.Close()
	return true
}

// describeOpenError turns the error of a Reader's first query into one
// that says what is wrong: a file that is not a loadlens run.db, or one
// SQLite may not read as this user.
func describeOpenError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "no such table"), strings.Contains(msg, "not a database"),
		errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("not a loadlens run.db (no schema version): %w", err)
	case strings.Contains(msg, "readonly"), strings.Contains(msg, "unable to open"):
		return fmt.Errorf("cannot read it as this user: its run directory or its -wal/-shm files are not writable "+
			"(a run that was still being written leaves them); copy the run directory somewhere writable: %w", err)
	}
	return fmt.Errorf("read schema version: %w", err)
}

package store

import (
	"errors"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsFull reports whether err says that the disk (or the user's quota, or
// the process's file size limit) left no room for what was written: SQLite's
// SQLITE_FULL, or ENOSPC, EDQUOT or EFBIG from the file system.
func IsFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EFBIG)
}

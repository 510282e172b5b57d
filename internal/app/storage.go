package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/loadlens/loadlens/internal/store"
)

// nearlyFull is the free space below which a failed write is put down to a
// full disk even when the error does not say so (SQLite reports some
// failed writes as plain I/O errors).
const nearlyFull = 1 << 20

// storageCause names why writing into dir failed, when it can tell: a
// file that reached the process's size limit (ulimit -f), or a full disk.
// It returns "" when the error says all there is to say.
func storageCause(dir string, err error) string {
	if limit, ok := fileSizeLimit(); ok && (errors.Is(err, syscall.EFBIG) || largestFile(dir) >= limit) {
		return fmt.Sprintf("a file reached this process's file size limit of %d bytes, set with ulimit -f", limit)
	}
	if free, ok := freeSpace(dir); store.IsFull(err) || ok && free < nearlyFull {
		return "the disk is full"
	}
	return ""
}

// largestFile returns the size of the largest file directly in dir.
func largestFile(dir string) int64 {
	entries, _ := os.ReadDir(dir)
	var most int64
	for _, e := range entries {
		if info, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && info.Mode().IsRegular() {
			most = max(most, info.Size())
		}
	}
	return most
}

package app

import (
	"errors"
	"syscall"
	"testing"
)

func TestStorageCause(t *testing.T) {
	if _, limited := fileSizeLimit(); limited {
		t.Skip("this test process runs under a file size limit, which would be named first")
	}
	if free, ok := freeSpace(t.TempDir()); ok && free < nearlyFull {
		t.Skip("the test's own disk is nearly full")
	}
	tests := []struct {
		err  error
		want string
	}{
		{syscall.ENOSPC, "the disk is full"},
		{errors.New("disk I/O error"), ""},
	}
	for _, tt := range tests {
		if got := storageCause(t.TempDir(), tt.err); got != tt.want {
			t.Errorf("storageCause(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

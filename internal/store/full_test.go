package store

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

func TestIsFull(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"no space", &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, true},
		{"quota", fmt.Errorf("wrapped: %w", syscall.EDQUOT), true},
		{"file size limit", syscall.EFBIG, true},
		{"permission", syscall.EACCES, false},
		{"other", errors.New("disk I/O error"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := IsFull(tt.err); got != tt.want {
			t.Errorf("%s: IsFull(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

package boundedfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusals: what regularOnly refuses is refused from a Stat,
// before an open that would wait (a named pipe with no writer) or never end
// (a device); a file over the limit is refused with its size.
func TestReadRefusals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small.txt")
	if err := os.WriteFile(small, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		limit      int64
		want       string // "" for the file's text
		tooLarge   bool
	}{
		{"a named pipe", fifo, 1 << 20, "not a regular file (a named pipe)", false},
		{"a device", os.DevNull, 1 << 20, "not a regular file (a device)", false},
		{"a directory", dir, 1 << 20, "not a regular file (a directory)", false},
		{"missing", filepath.Join(dir, "nope"), 1 << 20, "no such file", false},
		{"over the limit", small, 4, "5 bytes", true},
		{"a small file", small, 5, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var b []byte
			var err error
			go func() { b, err = Read(tc.path, tc.limit, true); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second): // a bound, not a synchronisation
				t.Fatal("the read did not return")
			}
			if tc.want == "" {
				if err != nil || string(b) != "hello" {
					t.Fatalf("read %q, %v", b, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var tl *TooLargeError
			if errors.As(err, &tl) != tc.tooLarge {
				t.Fatalf("error %v: TooLargeError %v, want %v", err, !tc.tooLarge, tc.tooLarge)
			}
		})
	}
}

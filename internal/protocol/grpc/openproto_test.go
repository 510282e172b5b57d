package grpc

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestImportedProtoRefusedBeforeReading: a .proto file that imports a named
// pipe or a link to /dev/zero fails at once, naming the file; opening the
// pipe once waited for a writer and the device was read without end.
func TestImportedProtoRefusedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.proto"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.proto")); err != nil {
		t.Fatal(err)
	}
	for _, imp := range []string{"fifo.proto", "zero.proto"} {
		t.Run(imp, func(t *testing.T) {
			src := "syntax = \"proto3\";\npackage a;\nimport \"" + imp + "\";\nservice B { }\n"
			if err := os.WriteFile(filepath.Join(dir, "a.proto"), []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
			g := &plan.GRPC{Method: "a.B/C", Protos: []string{"a.proto"}, ImportDir: []string{dir}}
			done := make(chan error, 1)
			go func() { _, err := fromProtos(g); done <- err }()
			select {
			case err := <-done:
				want := filepath.Join(dir, imp) + ": not a regular file"
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("error %v, want one containing %q", err, want)
				}
			case <-time.After(20 * time.Second): // a bound, not a synchronisation
				t.Fatal("compiling did not return")
			}
		})
	}
}

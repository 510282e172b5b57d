package mock

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadFileRefusesBeforeReading: a file larger than the limit, or one
// that is no regular file (/dev/zero), is refused from its Stat, without
// reading up to the limit first (a 300 MB body file took 625 MB and 2 s
// before `mock --check` refused it).
func TestReadFileRefusesBeforeReading(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	f.Close()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"ok": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, err string
	}{
		{"larger than the limit", big, "larger than 8 MiB"},
		{"a device", os.DevNull, "not a regular file"},
		{"a small file", small, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b, err := readFile(tc.path, 8<<20)
			runtime.ReadMemStats(&after)
			if tc.err == "" {
				if err != nil || string(b) != `{"ok": true}` {
					t.Fatalf("read %q, %v", b, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
				t.Errorf("allocated %d bytes to refuse it", grew)
			}
		})
	}
}

package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestRunDirNameIsBounded: a run named after a long URL path still gets a
// directory (a name of 400 bytes is beyond a file system's 255), its name
// at most maxRunDirName bytes, readable from its start and distinct from
// another long name that shares that start.
func TestRunDirNameIsBounded(t *testing.T) {
	parent := t.TempDir()
	at := time.Date(2026, 11, 24, 5, 28, 17, 0, time.UTC)
	long := "127.0.0.1-40000-" + strings.Repeat("a", 400)
	seen := map[string]bool{}
	for _, name := range []string{long, long + "b", long, strings.Repeat("é", 200), "short"} {
		dir, err := MakeRunDir(parent, name, at)
		if err != nil {
			t.Fatalf("%.30s…: %v", name, err)
		}
		base := filepath.Base(dir)
		if len(base) > maxRunDirName || !utf8.ValidString(base) {
			t.Errorf("%q: %d bytes, want at most %d, valid UTF-8", base, len(base), maxRunDirName)
		}
		if !strings.HasPrefix(base, "20261124-052817-"+name[:min(len(name), 10)]) {
			t.Errorf("%q does not start with the time and the name", base)
		}
		if seen[base] {
			t.Errorf("two runs share %q", base)
		}
		seen[base] = true
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			t.Errorf("%s is not a directory: %v", dir, err)
		}
	}
	if !seen["20261124-052817-short"] {
		t.Errorf("a short name was changed: %v", seen)
	}
}

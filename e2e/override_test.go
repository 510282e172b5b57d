package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestK6ShortcutsOverrideTheFile: k6's -u/-d/-i given with a test file
// replace every scenario's load, from the run's start (the file's own
// would wait 10 minutes, then send 100/s for an hour); -u alone is
// refused, saying what it needs.
func TestK6ShortcutsOverrideTheFile(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) }))
	defer srv.Close()
	dir := t.TempDir()
	test := fmt.Sprintf("name: shortcuts\nbase_url: %s\nscenarios:\n  a: {rate: 100, duration: 1h, start_time: 10m, flow: [get: /a]}\n"+
		"  b: {vus: 50, duration: 1h, flow: [get: /b]}\n", srv.URL)
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644)
	res := loadlens(t, dir, "run", "t.yaml", "-u", "2", "-i", "5", "--quiet")
	if res.code != 0 || n.Load() != 10 {
		t.Errorf("-u 2 -i 5: exit %d, %d requests; want 0 and 5 per scenario\n%s%s", res.code, n.Load(), res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "10 iterations") {
		t.Errorf("the summary does not count 10 iterations:\n%s", res.stdout)
	}
	res = loadlens(t, dir, "run", "t.yaml", "-u", "3", "--quiet")
	if want := "--vus with a test file needs --duration or --iterations"; res.code != 2 || !strings.Contains(res.stderr, want) {
		t.Errorf("-u alone: exit %d, %s; want 2 and %q", res.code, res.stderr, want)
	}
	if res := loadlens(t, dir, "run", "t.yaml", "--rate", "5", "--quiet"); res.code != 2 || !strings.Contains(res.stderr, "--rate applies to URL mode") {
		t.Errorf("--rate with a file: exit %d, %s", res.code, res.stderr)
	}
}

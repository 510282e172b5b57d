package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestSSEThroughTheBinary runs sse: steps through the real binary against a
// feed that closes after a few events and resumes from Last-Event-ID: the
// run reconnects, counts every event, and a threshold on the protocol's
// facts gates the exit code.
func TestSSEThroughTheBinary(t *testing.T) {
	var resumed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		from, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
		if from > 0 {
			resumed.Add(1)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := from + 1; i <= from+3; i++ { // three events a connection, then the server closes
			fmt.Fprintf(w, "id: %d\ndata: {\"n\": %d}\n\n", i, i)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `name: feed
base_url: %s
scenarios:
  feed:
    iterations: 4
    vus: 2
    flow:
      - sse: /feed
        max_events: 6
        reconnect: 1
        timeout: 10s
        check: {json: $.n, gt: 0}
thresholds:
  sse_msgs_received: ["%s"]
`
	for _, tc := range []struct {
		expr string
		code int
	}{{"count == 24", 0}, {"count > 24", 99}} {
		resumed.Store(0)
		os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, srv.URL, tc.expr)), 0o644)
		res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--results", "results-"+fmt.Sprint(tc.code))
		if res.code != tc.code {
			t.Fatalf("sse_msgs_received %s: exit %d, want %d\n%s%s", tc.expr, res.code, tc.code, res.stdout, res.stderr)
		}
		if resumed.Load() != 4 {
			t.Errorf("%d reconnections with Last-Event-ID, want 4 (one per session)", resumed.Load())
		}
		b, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results-"+fmt.Sprint(tc.code))), "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "SSE /feed") {
			t.Errorf("summary.json does not name the endpoint SSE /feed:\n%s", b)
		}
	}
}

// TestSSEValidate: an sse: step's mistakes are named by file, line and field.
func TestSSEValidate(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte("base_url: http://127.0.0.1:1\nscenarios:\n  s:\n    iterations: 1\n    vus: 1\n    flow:\n      - sse: /feed\n        max_events: 0\n"), 0o644)
	res := loadlens(t, dir, "validate", "t.yaml")
	if res.code == 0 || !strings.Contains(res.stderr+res.stdout, "t.yaml:8:21: scenarios.s.flow[0].max_events: must be at least 1") {
		t.Errorf("exit %d:\n%s%s", res.code, res.stdout, res.stderr)
	}
}

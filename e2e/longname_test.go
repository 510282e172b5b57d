package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// TestLongEndpointNamesFitTheTerminal runs against a 150-character URL
// path whose every other request fails, then reads the run back with
// summary, runs and compare: every line the binary prints fits 100
// columns, the name cut in the middle, and the request count it prints is
// the target's own.
func TestLongEndpointNamesFitTheTerminal(t *testing.T) {
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got.Add(1)%2 == 0 {
			http.Error(w, "the deployment service behind this endpoint is not answering: "+strings.Repeat("no ", 20), http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	path := "/api/v1/organisations/12345/projects/67890/environments/production-eu-west-1/deployments/" + strings.Repeat("x", 150-95)
	dir := t.TempDir()
	var out []string
	check := func(what string, r result) {
		t.Helper()
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", what, r.code, r.stdout, r.stderr)
		}
		out = append(out, r.stdout)
		for i, line := range strings.Split(r.stdout+r.stderr, "\n") {
			if n := utf8.RuneCountInString(line); n > 100 {
				t.Errorf("%s: line %d is %d columns: %q", what, i+1, n, line)
			}
		}
	}
	for range 2 {
		check("run", loadlens(t, dir, "run", srv.URL+path, "--rate", "20", "--duration", "1s", "--no-dashboard", "--results", "results"))
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "results", "*", "run.db"))
	if len(runs) != 2 {
		t.Fatalf("want two runs, found %v", runs)
	}
	rel := func(db string) string { return filepath.Join("results", filepath.Base(filepath.Dir(db))) } // as a user types it
	a, b := rel(runs[0]), rel(runs[1])
	check("summary", loadlens(t, dir, "summary", a))
	check("runs", loadlens(t, dir, "runs", "--results", "results"))
	check("compare", loadlens(t, dir, "compare", a, b))
	summary := out[2]
	if !strings.Contains(summary, "GET /api/v1/") || !strings.Contains(summary, "…") || !strings.Contains(summary, "xxxxx") {
		t.Errorf("the summary does not name the endpoint cut in the middle:\n%s", summary)
	}
	var said int64
	for _, o := range out[:2] {
		m := regexp.MustCompile(`(\d+) requests? \(`).FindStringSubmatch(o)
		if m == nil {
			t.Fatalf("no request count in:\n%s", o)
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		said += n
	}
	if sent := got.Load(); said != sent {
		t.Errorf("the target answered %d requests over two runs; the summaries say %d", sent, said)
	}
}

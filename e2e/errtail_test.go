package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestErrorsInTheLastSecondAreNamed runs 800 requests at 200/s against a
// target that answers the last 30 with a 500 (3.75 % of the run, in its
// last second) and reads the errors finding in summary.json: it names
// them, with the count the target answered (issue 20: no finding named
// them, and a `rate == 0` gate failed without a word).
func TestErrorsInTheLastSecondAreNamed(t *testing.T) {
	const total, failing = 800, 30
	r, s, failed, seen := runAgainstFailing(t, func(n int64) bool { return n > total-failing })
	if failed < 3 {
		t.Fatalf("the target answered %d requests of %d with a 500; want %d\n%s", failed, seen, failing, r.stdout)
	}
	want := strconv.FormatInt(failed, 10) + " http_5xx failures"
	for _, f := range s {
		if f.Kind != "errors-at-load" {
			continue
		}
		if !strings.Contains(f.Title, "http_5xx 100%") {
			t.Errorf("title %q does not name the 500s", f.Title)
		}
		for _, e := range f.Evidence {
			if strings.Contains(e.Text, want) {
				return
			}
		}
		t.Fatalf("no evidence says %q in %+v", want, f.Evidence)
	}
	t.Fatalf("no errors-at-load finding for %d failures in the last second\n%s", failed, r.stdout)
}

// finding is a finding as summary.json carries it.
type finding struct {
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Evidence []struct {
		Text string `json:"text"`
	} `json:"evidence"`
}

// readFindings reads the findings of a summary.json.
func readFindings(t *testing.T, path string) []finding {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Findings []finding `json:"findings"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.Loadlens.Findings
}

// TestErrorsInOneSecondAmidTheRunAreNamed runs 800 requests at 200/s
// against a target that answers 30 of them mid-run with a 500 (3.75 % of
// the run, within 0.15 s) and reads the errors finding in summary.json:
// it names the 500s (issue 20: a lone second's errors read no finding
// unless they fell at the run's edges; two seconds in a row, when the 30
// straddle a second's end, were named before).
func TestErrorsInOneSecondAmidTheRunAreNamed(t *testing.T) {
	const from, failing = 400, 30
	r, s, failed, seen := runAgainstFailing(t, func(n int64) bool { return n > from && n <= from+failing })
	if failed != failing {
		t.Fatalf("the target answered %d requests of %d with a 500; want %d\n%s", failed, seen, failing, r.stdout)
	}
	for _, f := range s {
		if f.Kind == "errors-at-load" {
			if !strings.Contains(f.Title, "http_5xx 100%") {
				t.Errorf("title %q does not name the 500s", f.Title)
			}
			if strings.HasPrefix(f.Title, "A burst") && f.Severity != "warning" {
				t.Errorf("a burst that stopped is %s, want warning: %q", f.Severity, f.Title)
			}
			return
		}
	}
	t.Fatalf("no errors-at-load finding for %d 500s amid the run\n%s", failed, r.stdout)
}

// runAgainstFailing runs 200 requests/s for 4 s against a server that
// answers 500 to the requests fails picks by their number (from 1), and
// returns the run, its findings, and how many requests the server failed
// and saw.
func runAgainstFailing(t *testing.T, fails func(n int64) bool) (r result, s []finding, failed, seen int64) {
	t.Helper()
	var nSeen, nFailed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if fails(nSeen.Add(1)) {
			nFailed.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	r = loadlens(t, dir, "run", srv.URL+"/x", "--rate", "200", "--duration", "4s", "--quiet", "--no-dashboard",
		"--results", "results", "--summary-json", "s.json")
	if r.code != 0 && r.code != 99 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	return r, readFindings(t, filepath.Join(dir, "s.json")), nFailed.Load(), nSeen.Load()
}

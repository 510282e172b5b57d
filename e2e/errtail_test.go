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
	var seen, failed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) > total-failing {
			failed.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	r := loadlens(t, dir, "run", srv.URL+"/x", "--rate", "200", "--duration", "4s", "--quiet", "--no-dashboard",
		"--results", "results", "--summary-json", "s.json")
	if r.code != 0 && r.code != 99 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Findings []struct {
				Kind     string `json:"kind"`
				Title    string `json:"title"`
				Evidence []struct {
					Text string `json:"text"`
				} `json:"evidence"`
			} `json:"findings"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if n := failed.Load(); n < 3 {
		t.Fatalf("the target answered %d requests of %d with a 500; want %d\n%s", n, seen.Load(), failing, r.stdout)
	}
	want := strconv.FormatInt(failed.Load(), 10) + " http_5xx failures"
	for _, f := range s.Loadlens.Findings {
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
	t.Fatalf("no errors-at-load finding for %d failures in the last second\n%s", failed.Load(), r.stdout)
}

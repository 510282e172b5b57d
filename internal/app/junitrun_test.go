package app

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/store"
)

// junitFailures is the failures count of a JUnit file's testsuites.
func junitFailures(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<testsuites [^>]*failures="(\d+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no testsuites element:\n%s", b)
	}
	return string(m[1])
}

// TestJUnitOfAnInterruptedRun: a run stopped by Ctrl-C writes a JUnit
// file with a failure, as its exit code 1 says (it had failures="0").
func TestJUnitOfAnInterruptedRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 3 { // two answered: the gate (no request succeeded) does not fail it
			cancel()
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	src := "base_url: " + srv.URL + "\nthresholds: {http_req_failed: [\"rate<=1\"]}\nscenarios:\n  s: {vus: 1, duration: 1m, flow: [get: /x]}\n"
	p, err := plan.Parse(filepath.Join(dir, "t.yaml"), []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	ju := filepath.Join(dir, "junit.xml")
	res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: filepath.Join(dir, "results"), Out: &bytes.Buffer{}, Quiet: true, JUnit: ju, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusInterrupted || res.ExitCode == ExitOK {
		t.Fatalf("status %s exit %d, want interrupted and not 0", res.Status, res.ExitCode)
	}
	if n := junitFailures(t, ju); n != "1" {
		t.Errorf("an interrupted run's JUnit has failures=%q, want 1", n)
	}
}

// TestJUnitOfAKilledRun: `report DIR --junit` of a run whose process was
// killed (run.db without its end: INCOMPLETE) fails in JUnit (tests="0").
func TestJUnitOfAKilledRun(t *testing.T) {
	dir := t.TempDir()
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{ID: "r", Name: "killed", Start: time.Now(),
		Layout: sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "s", Model: "vus"}}, Endpoints: []sample.EndpointInfo{{Name: "GET /x", Method: "GET"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil { // no Finish: as kill -9 leaves it
		t.Fatal(err)
	}
	ju := filepath.Join(dir, "junit.xml")
	if _, err := Report(ReportConfig{Run: dir, Outputs: Outputs{JUnit: ju}}); err != nil {
		t.Fatal(err)
	}
	if n := junitFailures(t, ju); n != "1" {
		t.Errorf("a killed run's JUnit has failures=%q, want 1", n)
	}
}

package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// runWithOutputs runs a 2-second test against a server that fails every
// fifth request, with the dashboard on and JUnit and Markdown asked for.
func runWithOutputs(t *testing.T) (RunResult, string, string) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%5 == 0 {
			http.Error(w, "nope", http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(`
base_url: %s
thresholds:
  http_req_failed: ["rate < 0.5"]
scenarios:
  s:
    model: iterations
    vus: 1
    iterations: 20
    flow:
      - get: /x
        check:
          - status: 200
`, srv.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: filepath.Join(dir, "results"), Out: &out, Quiet: true, Version: "test",
		Dashboard: DashboardConfig{Addr: "127.0.0.1:0"}, JUnit: filepath.Join(dir, "ci", "junit.xml"), SummaryMD: filepath.Join(dir, "ci", "summary.md")})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	return res, dir, out.String()
}

func TestRunWritesEveryOutput(t *testing.T) {
	res, dir, out := runWithOutputs(t)
	if !regexp.MustCompile(`(?m)^dashboard: http://127\.0\.0\.1:\d+/`).MatchString(out) {
		t.Errorf("the dashboard URL is not printed:\n%s", out)
	}
	if !strings.Contains(out, "report: "+filepath.Join(res.Dir, ReportFile)) {
		t.Errorf("the report's path is not printed:\n%s", out)
	}
	cases := []struct {
		file string
		want []string
	}{
		{filepath.Join(res.Dir, ReportFile), []string{"<!DOCTYPE html>", `class="verdict pass">PASS<`, "GET /x", "503 Service Unavailable"}},
		{filepath.Join(dir, "ci", "junit.xml"), []string{`<testsuite name="thresholds" tests="1" failures="0"`, `name="status is 200 (GET /x)"`, "4 of 20 failed"}},
		{filepath.Join(dir, "ci", "summary.md"), []string{"## ✅ PASS", "| GET /x | 20 |"}},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			b, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range c.want {
				if !bytes.Contains(b, []byte(want)) {
					t.Errorf("%s lacks %q", c.file, want)
				}
			}
		})
	}
}

func TestReportRebuildsFromRunDB(t *testing.T) {
	res, dir, _ := runWithOutputs(t)
	in, err := LoadRun(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if in.Host == "" || in.CPUs == 0 || len(in.TestSource) == 0 || len(in.GeneratorCPU) == 0 {
		t.Errorf("LoadRun lost the run's host %q, CPUs %d, test (%d bytes) or generator CPU (%d seconds)",
			in.Host, in.CPUs, len(in.TestSource), len(in.GeneratorCPU))
	}
	cases := []struct {
		name     string
		outputs  Outputs
		wantPath string
	}{
		{"into the run directory", Outputs{}, filepath.Join(res.Dir, ReportFile)},
		{"elsewhere", Outputs{HTML: filepath.Join(dir, "out", "r.html")}, filepath.Join(dir, "out", "r.html")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.outputs.HTML == "" {
				if err := os.Remove(c.wantPath); err != nil {
					t.Fatal(err)
				}
			}
			path, err := Report(ReportConfig{Run: res.Dir, Outputs: c.outputs})
			if err != nil {
				t.Fatal(err)
			}
			if path != c.wantPath {
				t.Errorf("Report wrote %s, want %s", path, c.wantPath)
			}
			if b, err := os.ReadFile(path); err != nil || !bytes.Contains(b, []byte("GET /x")) {
				t.Errorf("rebuilt report %s: %v", path, err)
			}
		})
	}
	if _, err := Report(ReportConfig{Run: filepath.Join(dir, "no-such-run")}); err == nil {
		t.Error("Report of a missing run: no error")
	}
}

func TestDashboardAddressTaken(t *testing.T) {
	taken := httptest.NewServer(http.NotFoundHandler())
	defer taken.Close()
	p, err := plan.FromURL(plan.URLOptions{URL: taken.URL, VUs: 1, Duration: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	res, err := Run(context.Background(), RunConfig{Plan: p, ResultsDir: dir, Out: &bytes.Buffer{}, Quiet: true,
		Dashboard: DashboardConfig{Addr: strings.TrimPrefix(taken.URL, "http://")}})
	if err == nil || !strings.Contains(err.Error(), "--no-dashboard") || res.ExitCode != ExitRunFailed {
		t.Fatalf("Run with a taken dashboard address: %v (exit %d), want an error suggesting --no-dashboard", err, res.ExitCode)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a run that could not start left %d entries in %s", len(entries), dir)
	}
}

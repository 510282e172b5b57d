package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startRun starts a long URL-mode run and waits until run.db holds a few
// seconds, returning the process and its run directory.
func startRun(t *testing.T, dir, url string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(binary, "run", url, "--vus", "2", "--duration", "60s", "--results", "results", "--quiet")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var run string
	waitFor(t, 20*time.Second, "run.db with 2 seconds", func() bool {
		dbs, _ := filepath.Glob(filepath.Join(dir, "results", "*", "run.db"))
		if len(dbs) != 1 {
			return false
		}
		run = filepath.Dir(dbs[0])
		r := loadlens(t, dir, "summary", "--json", run)
		return r.code == 0 && strings.Contains(r.stdout, `"testRunDurationMs": 2000`) || strings.Contains(r.stdout, `"testRunDurationMs": 3000`)
	})
	return cmd, run
}

func TestKill9LeavesAReadableRun(t *testing.T) {
	srv := target(t)
	dir := t.TempDir()
	cmd, run := startRun(t, dir, srv.URL+"/ok")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	r := loadlens(t, dir, "summary", run)
	if r.code != 0 {
		t.Fatalf("summary of a killed run: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"incomplete", "GET /ok", "the run did not finish", "run.db recorded no end and no exit code"} {
		if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "exit code:") { // it exited with none of its own
		t.Errorf("the summary of a killed run names an exit code:\n%s", r.stdout)
	}
	if r := loadlens(t, dir, "runs", "--results", "results"); !strings.Contains(r.stdout, "incomplete") {
		t.Errorf("runs does not show the killed run as incomplete:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(run, "report.html")); err == nil {
		t.Fatal("a killed run has a report.html before `loadlens report`")
	}
	if r := loadlens(t, dir, "report", run); r.code != 0 {
		t.Fatalf("report of a killed run: exit %d\n%s", r.code, r.stderr)
	}
	page, err := os.ReadFile(filepath.Join(run, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">Incomplete<", "GET /ok", "the run did not finish"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html of a killed run lacks %q", want)
		}
	}
}

func TestInterruptStillWritesTheSummary(t *testing.T) {
	srv := target(t)
	dir := t.TempDir()
	cmd, run := startRun(t, dir, srv.URL+"/ok")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Fatalf("exit after Ctrl-C: %v, want code 1", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("loadlens did not stop after Ctrl-C")
	}
	s := readSummary(t, filepath.Join(run, "summary.json"))
	if n, _ := s.Metrics["http_reqs"]["count"].(float64); n == 0 {
		t.Fatal("summary.json of an interrupted run has no requests")
	}
	r := loadlens(t, dir, "summary", run)
	if !strings.Contains(r.stdout, "interrupted") {
		t.Errorf("summary does not say interrupted:\n%s", r.stdout)
	}
}

func TestDemoSession(t *testing.T) {
	dir := t.TempDir()
	r := loadlens(t, dir, "demo", "--quiet", "--no-dashboard", "--results", "results")
	if r.code != 0 {
		t.Fatalf("demo: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"1/2 demo-naive", "2/2 demo-improved", "DB pool exhausted", "before → after",
		"first page (case study 1)", "coupon audit (case study 5)", "report.html"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, r.stdout)
		}
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "results", "*", "report.html"))
	if len(runs) != 2 {
		t.Fatalf("%d runs with a report, want the naive and the improved one", len(runs))
	}
	if r := loadlens(t, dir, "runs", "--results", "results"); !strings.Contains(r.stdout, "demo-naive") || !strings.Contains(r.stdout, "demo-improved") {
		t.Errorf("runs does not list both demo runs:\n%s", r.stdout)
	}
}

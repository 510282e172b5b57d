package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// silentTarget accepts connections, reads each request's head and never
// answers; it counts the requests it received, to check loadlens's count
// against.
func silentTarget(t *testing.T) (url string, received *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	received = new(atomic.Int64)
	var conns []net.Conn
	connsDone := make(chan []net.Conn, 1)
	go func() {
		defer func() { connsDone <- conns }()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			go func() {
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if line == "\r\n" { // the end of a request's head; these requests have no body
						received.Add(1)
					}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for _, c := range <-connsDone {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/x", received
}

// runIn runs the binary in dir with a deadline and returns what it did and
// how long it took.
func runIn(t *testing.T, dir string, limit time.Duration, argv ...string) (result, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %v: %v", argv, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%v did not end within %v:\n%s\n%s", argv, limit, out.String(), errb.String())
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}, took
}

func TestADeadTargetFails(t *testing.T) {
	url, received := silentTarget(t)
	dir := t.TempDir()
	// Every request times out after 1s, within the run: with p(95) < 5s the
	// timeouts' own durations would pass, and only "nothing completed" fails it.
	r, took := runIn(t, dir, 90*time.Second, binary, "run", url, "--rate", "20", "--duration", "3s", "--timeout", "1s",
		"--threshold", "p(95)<5s", "--threshold", "rate<0.01", "--results", "results", "--quiet", "--no-dashboard",
		"--summary-json", "s.json")
	if r.code != 99 {
		t.Fatalf("exit %d, want 99 (thresholds failed)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	s := readSummary(t, filepath.Join(dir, "s.json"))
	sent, _ := s.Metrics["http_reqs"]["count"].(float64)
	if got := received.Load(); sent == 0 || int64(sent) != got {
		t.Errorf("loadlens counted %v requests; the target received %d", sent, got)
	}
	want := "no completed request (" + strconv.Itoa(int(sent)) + " sent)"
	for _, w := range []string{"✗ http_req_duration", want, "✗ http_req_failed", "rate=100.00%", "FAIL: 2 of 2 thresholds failed"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("the summary lacks %q:\n%s", w, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "timeout") {
		t.Errorf("the summary does not name the timeouts:\n%s", r.stdout)
	}
	// 3s of load, then the last requests' 1s timeout; generous for a busy machine.
	if took < 3*time.Second || took > 20*time.Second {
		t.Errorf("the run took %v, want about 4s", took)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "s.json")); err != nil || !strings.Contains(string(b), `"observed_text": "`+want+`"`) {
		t.Errorf("summary.json does not give the reason %q (%v)", want, err)
	}
}

// TestADeadTargetFailsAtTheGracefulStop is the same dead target with the
// default timeout: the run ends at --graceful-stop, and the requests it
// cuts off are counted (as interrupted) and fail the latency threshold.
func TestADeadTargetFailsAtTheGracefulStop(t *testing.T) {
	url, received := silentTarget(t)
	dir := t.TempDir()
	r, took := runIn(t, dir, 90*time.Second, binary, "run", url, "--rate", "20", "--duration", "3s", "--graceful-stop", "1s",
		"--threshold", "p(95)<500ms", "--threshold", "rate<0.01", "--results", "results", "--quiet", "--no-dashboard",
		"--summary-json", "s.json")
	if r.code != 99 {
		t.Fatalf("exit %d, want 99\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	s := readSummary(t, filepath.Join(dir, "s.json"))
	sent, _ := s.Metrics["http_reqs"]["count"].(float64)
	if got := received.Load(); sent == 0 || int64(sent) != got {
		t.Errorf("loadlens counted %v requests; the target received %d", sent, got)
	}
	flat := strings.Join(strings.Fields(r.stdout), " ") // the summary's notes are wrapped
	for _, w := range []string{"no completed request (" + strconv.Itoa(int(sent)) + " sent)",
		"were cut off by the end of the run (interrupted): they count as failed, and their durations are lower bounds"} {
		if !strings.Contains(flat, w) {
			t.Errorf("the summary lacks %q:\n%s", w, r.stdout)
		}
	}
	if took > 20*time.Second {
		t.Errorf("the run took %v, want about 3s + 1s of graceful stop", took)
	}
}

// fullDiskRun runs a long test whose results directory fills up, through
// argv's prefix (prlimit, or nothing on a small file system), and checks
// that loadlens warns, stops the load, keeps what it wrote and says the
// results are incomplete, without ever leaving an empty report.
func fullDiskRun(t *testing.T, dir string, prefix ...string) {
	t.Helper()
	srv := target(t)
	argv := append(prefix, binary, "run", srv.URL+"/ok", "--rate", "20", "--duration", "60s", "--results", "results",
		"--quiet", "--no-dashboard")
	r, took := runIn(t, dir, 90*time.Second, argv...)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the run failed)\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if took > 45*time.Second {
		t.Errorf("the run took %v of its 60s: the load did not stop when the disk filled", took)
	}
	warning := regexp.MustCompile(`warning: run.db could not be written at second (\d+) because (the disk is full|a file reached this process's file size limit)`)
	m := warning.FindStringSubmatch(strings.ReplaceAll(r.stdout, "\n  ", " ")) // a warning wraps at 100 columns
	if m == nil {
		t.Fatalf("no warning when the disk filled:\n%s", r.stdout)
	}
	for _, w := range []string{"· incomplete in", "the results are incomplete: run.db could not be written at second " + m[1]} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("the summary lacks %q:\n%s", w, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "loadlens: the results are incomplete") {
		t.Errorf("the exit message does not say the results are incomplete:\n%s", r.stderr)
	}
	run := onlyRunDir(t, filepath.Join(dir, "results"))
	if info, err := os.Stat(filepath.Join(run, "report.html")); err == nil {
		if info.Size() == 0 {
			t.Error("report.html was left empty")
		}
		if !strings.Contains(r.stdout, "report: "+filepath.Join("results", filepath.Base(run), "report.html")) {
			t.Errorf("report.html exists but the summary does not point to it:\n%s", r.stdout)
		}
	} else if !strings.Contains(r.stdout, "report: not written:") || !strings.Contains(r.stderr, "report.html could not be written") {
		t.Errorf("report.html is missing and nothing says so:\n%s\n%s", r.stdout, r.stderr)
	}
	if tmp, _ := filepath.Glob(filepath.Join(run, ".*.tmp")); len(tmp) > 0 {
		t.Errorf("temporary files left behind: %v", tmp)
	}
	// What was written before the disk filled reads back (outside the limit).
	sum := loadlens(t, dir, "summary", "--json", run)
	if sum.code != 0 {
		t.Fatalf("summary of the run: exit %d\n%s", sum.code, sum.stderr)
	}
	var js struct {
		Metrics  map[string]map[string]any `json:"metrics"`
		Loadlens struct {
			Status string `json:"status"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal([]byte(sum.stdout), &js); err != nil {
		t.Fatal(err)
	}
	if n, _ := js.Metrics["http_reqs"]["count"].(float64); n == 0 || js.Loadlens.Status != "incomplete" {
		t.Errorf("read back: %v requests, status %q; want the seconds written, incomplete", n, js.Loadlens.Status)
	}
}

func TestAFullDiskStopsTheLoad(t *testing.T) {
	t.Run("file size limit", func(t *testing.T) {
		prlimit, err := exec.LookPath("prlimit")
		if err != nil {
			t.Skip("prlimit (util-linux) is not installed")
		}
		// run.db's write-ahead log reaches 150 kB after a few seconds.
		fullDiskRun(t, t.TempDir(), prlimit, "--fsize=150000")
	})
	t.Run("full file system", func(t *testing.T) {
		dir := t.TempDir()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
		}
		t.Cleanup(func() {
			if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
				t.Errorf("umount %s: %v %s", dir, err, out)
			}
		})
		fullDiskRun(t, dir)
	})
}

// TestTwoInterruptsStillWriteEverything sends a second SIGINT as soon as
// loadlens says it is writing the results, as `timeout -s INT` does (it
// signals the process, then its group): the second must not cut the final
// write short.
func TestTwoInterruptsStillWriteEverything(t *testing.T) {
	srv := target(t)
	for try := range 3 {
		dir := t.TempDir()
		cmd := exec.Command(binary, "run", srv.URL+"/ok", "--rate", "50", "--duration", "60s", "--results", "results",
			"--no-dashboard", "--summary-json", "s.json")
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout = &out
		errPipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		var errb testkit.Buffer
		stopping := make(chan struct{}, 1)
		done := make(chan error, 1)
		go func() {
			sc := bufio.NewScanner(errPipe)
			for sc.Scan() {
				fmt.Fprintln(&errb, sc.Text())
				if strings.HasPrefix(sc.Text(), "stopping:") {
					stopping <- struct{}{}
				}
			}
			done <- cmd.Wait()
		}()
		waitFor(t, 20*time.Second, "a second of the run in run.db", func() bool {
			dbs, _ := filepath.Glob(filepath.Join(dir, "results", "*", "run.db"))
			if len(dbs) != 1 {
				return false
			}
			r := loadlens(t, dir, "summary", "--json", filepath.Dir(dbs[0]))
			return r.code == 0 && !strings.Contains(r.stdout, `"testRunDurationMs": 0`)
		})
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case <-stopping:
		case <-time.After(10 * time.Second):
			t.Fatalf("try %d: no \"stopping:\" after SIGINT:\n%s", try, errb.String())
		}
		// Two SIGINTs sent together arrive as one; this one comes while the results are written.
		second := cmd.Process.Signal(syscall.SIGINT)
		if second != nil && !errors.Is(second, os.ErrProcessDone) {
			t.Fatal(second)
		}
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("try %d: loadlens did not stop after two SIGINTs", try)
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("try %d: exit %v, want code 1\n%s\n%s", try, err, out.String(), errb.String())
		}
		s := readSummary(t, filepath.Join(dir, "s.json"))
		if n, _ := s.Metrics["http_reqs"]["count"].(float64); n == 0 {
			t.Errorf("try %d: summary.json has no requests", try)
		}
		run := onlyRunDir(t, filepath.Join(dir, "results"))
		for _, f := range []string{"report.html", "summary.json"} {
			if info, err := os.Stat(filepath.Join(run, f)); err != nil || info.Size() == 0 {
				t.Errorf("try %d: %s missing or empty after two SIGINTs (%v)", try, f, err)
			}
		}
		for _, w := range []string{"· interrupted in", "report: results"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("try %d: the printed summary lacks %q:\n%s", try, w, out.String())
			}
		}
		if second == nil && !strings.Contains(errb.String(), "still writing the results") {
			t.Errorf("try %d: the second SIGINT was not acknowledged:\n%s", try, errb.String())
		}
	}
}

func TestDashboardOffLoopbackAsksForItsToken(t *testing.T) {
	srv := target(t)
	dir := t.TempDir()
	run := startLive(t, dir, "run", srv.URL+"/ok", "--vus", "1", "--duration", "3s", "--results", "results", "--quiet",
		"--dashboard-addr", "0.0.0.0:0")
	u, err := neturl.Parse(run.dashboard)
	if err != nil {
		t.Fatal(err)
	}
	token := u.Query().Get("token")
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() || len(token) < 16 {
		t.Fatalf("printed URL %q: want a host a browser can reach and a token", run.dashboard)
	}
	// The URL as printed opens the page; without its token nothing is served.
	status := func(raw string) int {
		resp, err := http.Get(raw)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	bare := "http://127.0.0.1:" + u.Port() + "/"
	for _, c := range []struct {
		url  string
		want int
	}{{run.dashboard, 200}, {bare, 401}, {bare + "events", 401}, {bare + "events?token=" + strings.Repeat("x", len(token)), 403}} {
		if got := status(c.url); got != c.want {
			t.Errorf("GET %s: %d, want %d", c.url, got, c.want)
		}
	}
	if code := run.wait(t); code != 0 {
		t.Errorf("exit %d", code)
	}
}

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
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
)

// refusedURL is a loopback address where nothing listens: every connection is refused.
func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/"
}

// judgedTarget serves /ok (200), /fail (500) and /some (500 for every
// fifth request), counting what it received, for the independent count.
func judgedTarget(t *testing.T) (base string, received *atomic.Int64, stop func()) {
	t.Helper()
	received = new(atomic.Int64)
	var n atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) { received.Add(1); fmt.Fprint(w, "ok") })
	mux.HandleFunc("GET /fail", func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
		http.Error(w, "oops", http.StatusInternalServerError)
	})
	mux.HandleFunc("GET /some", func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
		if n.Add(1)%5 == 0 {
			http.Error(w, "oops", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "ok")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	stop = func() { srv.Close() } // closes the listener and every connection: what follows is refused
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), received, stop
}

// judgedRun is one run's exit code, printed summary and summary.json.
type judgedRun struct {
	code    int
	stdout  string
	flat    string // stdout with its wrapping undone
	summary map[string]any
}

func (r judgedRun) own(key string) any {
	own, _ := r.summary["loadlens"].(map[string]any)
	return own[key]
}

// runJudged runs loadlens run with args in a new directory; signal, when
// not nil, is sent once the target has received 20 requests.
func runJudged(t *testing.T, received *atomic.Int64, signal os.Signal, args ...string) judgedRun {
	t.Helper()
	dir := t.TempDir()
	argv := append([]string{"run", "--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json"}, args...)
	cmd := exec.Command(binary, argv...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if signal != nil {
		waitFor(t, 30*time.Second, "20 requests at the target", func() bool { return received.Load() >= 20 })
		if err := cmd.Process.Signal(signal); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("loadlens %v did not end within 90s", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r := judgedRun{code: code, stdout: out.String() + errb.String(), flat: strings.Join(strings.Fields(out.String()), " ")}
	b, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatalf("summary.json: %v\n%s", err, r.stdout)
	}
	if err := json.Unmarshal(b, &r.summary); err != nil {
		t.Fatal(err)
	}
	return r
}

// checkExitWords fails the test when anything the run printed or wrote
// about its exit code disagrees with the code it exited with.
func checkExitWords(t *testing.T, r judgedRun) {
	t.Helper()
	for _, m := range regexp.MustCompile(`exit code:? (?:is still )?(\d+)`).FindAllStringSubmatch(r.flat, -1) {
		if said, _ := strconv.Atoi(m[1]); said != r.code {
			t.Errorf("the summary says %q; the exit code is %d:\n%s", m[0], r.code, r.stdout)
		}
	}
	if strings.Contains(r.flat, "PASS:") != (r.code == 0 && strings.Contains(r.flat, "THRESHOLDS")) {
		t.Errorf("the summary's PASS disagrees with exit code %d:\n%s", r.code, r.stdout)
	}
	if passed, _ := r.own("passed").(bool); passed != (r.code == 0) {
		t.Errorf("summary.json passed=%v with exit code %d", passed, r.code)
	}
}

// TestADeadTargetPassesNoThreshold: a target that refuses every
// connection fails every latency threshold, iteration_duration and
// connect time included, and a threshold with no data fails too (trial
// defect A: iteration_duration p(95)=50µs and http_req_connecting "no
// data" passed).
func TestADeadTargetPassesNoThreshold(t *testing.T) {
	url := refusedURL(t)
	for _, tc := range []struct{ threshold, want string }{
		{"iteration_duration: p(95)<1s", "✗ iteration_duration p(95)<1s no completed request ("},
		{"http_req_connecting: avg<1s", "✗ http_req_connecting avg<1s no completed request ("},
		{"http_req_waiting: max<1s", "✗ http_req_waiting max<1s no completed request ("},
		{"checks: rate>0.5", "✗ checks rate>0.5 no data"},
	} {
		t.Run(tc.threshold, func(t *testing.T) {
			r := runJudged(t, nil, nil, url, "--vus", "2", "--duration", "1s", "--threshold", tc.threshold)
			if r.code != 99 {
				t.Fatalf("exit %d, want 99:\n%s", r.code, r.stdout)
			}
			if !strings.Contains(r.flat, tc.want) || !strings.Contains(r.flat, "FAIL: 1 of 1 threshold failed") {
				t.Errorf("the summary lacks %q:\n%s", tc.want, r.stdout)
			}
			checkExitWords(t, r)
		})
	}
}

// TestAFailingTargetFailsLatencyGates: 100% 500s fail a latency-only gate,
// and so does a target killed mid-run whose refused connections would
// otherwise pull p(95) down to microseconds (trial defect B).
func TestAFailingTargetFailsLatencyGates(t *testing.T) {
	t.Run("every request a 500", func(t *testing.T) {
		base, received, _ := judgedTarget(t)
		r := runJudged(t, received, nil, base+"/fail", "--vus", "2", "--duration", "1s", "--threshold", "p(95)<800ms")
		sent := int64(r.summary["metrics"].(map[string]any)["http_reqs"].(map[string]any)["count"].(float64))
		if got := received.Load(); sent == 0 || sent != got {
			t.Errorf("loadlens counted %d requests; the target received %d", sent, got)
		}
		want := fmt.Sprintf("✗ http_req_duration p(95)<800ms every request failed (%s sent): no latency to judge", count(sent))
		if r.code != 99 || !strings.Contains(r.flat, want) {
			t.Errorf("exit %d, want 99 and %q:\n%s", r.code, want, r.stdout)
		}
		checkExitWords(t, r)
	})
	t.Run("killed mid-run", func(t *testing.T) {
		base, received, stop := judgedTarget(t)
		go func() { // the target dies once it has answered 200 requests
			deadline := time.Now().Add(60 * time.Second)
			for received.Load() < 200 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond) // polling the target's own count, bounded by the deadline
			}
			stop()
		}()
		r := runJudged(t, received, nil, base+"/ok", "--rate", "200", "--duration", "3s",
			"--threshold", "p(95)<800ms", "--threshold", "avg<800ms")
		metrics := r.summary["metrics"].(map[string]any)
		sent := int64(metrics["http_reqs"].(map[string]any)["count"].(float64))
		failed := int64(metrics["http_req_failed"].(map[string]any)["passes"].(float64))
		answered := received.Load()
		// The target's own count: what it never received failed; a few it
		// received may have lost their answer when it closed.
		if r.code != 99 || failed < sent-answered || failed == sent {
			t.Fatalf("exit %d, want 99; %d sent, %d failed, the target received %d:\n%s", r.code, sent, failed, answered, r.stdout)
		}
		want := fmt.Sprintf("✗ http_req_duration p(95)<800ms %s of %s requests failed (", count(failed), count(sent))
		if !strings.Contains(r.flat, want) || !strings.Contains(r.flat, "more than the 5.00% p(95) leaves out") {
			t.Errorf("the summary lacks %q … more than the 5.00%% p(95) leaves out:\n%s", want, r.stdout)
		}
		judged := fmt.Sprintf("judged: http_req_duration avg<800ms over %s requests, %s failed", count(sent), count(failed))
		if !strings.Contains(r.flat, judged) {
			t.Errorf("the summary does not say which requests avg judged (%q):\n%s", judged, r.stdout)
		}
		checkExitWords(t, r)
	})
	t.Run("failures within what p(95) leaves out", func(t *testing.T) {
		base, received, _ := judgedTarget(t)
		r := runJudged(t, received, nil, base+"/some", "--vus", "2", "--duration", "1s", "--threshold", "p(75)<800ms", "--threshold", "p(95)<800ms")
		if r.code != 99 || !strings.Contains(r.flat, "✓ http_req_duration p(75)<800ms") ||
			!strings.Contains(r.flat, "more than the 5.00% p(95) leaves out") {
			t.Errorf("exit %d; want p(75) to pass over 20%% failures and p(95) to fail:\n%s", r.code, r.stdout)
		}
		checkExitWords(t, r)
	})
	t.Run("expected_response:true judges the successes alone", func(t *testing.T) {
		base, received, _ := judgedTarget(t)
		r := runJudged(t, received, nil, base+"/some", "--vus", "2", "--duration", "1s", "--threshold", "http_req_duration{expected_response:true}:p(95)<800ms")
		metrics := r.summary["metrics"].(map[string]any)
		sent := int64(metrics["http_reqs"].(map[string]any)["count"].(float64))
		failed := int64(metrics["http_req_failed"].(map[string]any)["passes"].(float64))
		judged := fmt.Sprintf("judged: http_req_duration{expected_response:true} p(95)<800ms over the %s requests that succeeded, of %s sent",
			count(sent-failed), count(sent))
		if r.code != 0 || failed == 0 || !strings.Contains(r.flat, judged) {
			t.Errorf("exit %d, %d failed; want 0, some failed, and %q:\n%s", r.code, failed, judged, r.stdout)
		}
	})
}

// count writes n as the summary does, with thousands separators.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestEveryExitCodeIsSaidTruly: on every way a run ends, what the summary
// says about the exit code, its PASS, and summary.json's "passed" agree
// with the code the process exits with; an interrupted run's verdict says
// interrupted (trial defect C: "ALL FAILED … the exit code is still 0"
// and "PASS" on interrupted runs that exited 1).
func TestEveryExitCodeIsSaidTruly(t *testing.T) {
	base, received, _ := judgedTarget(t)
	silent, heard := silentTarget(t)
	tests := []struct {
		name     string
		counter  *atomic.Int64
		signal   os.Signal
		args     []string
		wantCode int
		want     string
	}{
		{"passed", received, nil, []string{base + "/ok", "--vus", "2", "--duration", "1s", "--threshold", "p(95)<5s"}, 0, "PASS: 1 threshold passed"},
		{"a threshold failed", received, nil, []string{base + "/ok", "--vus", "2", "--duration", "1s", "--threshold", "p(95)<1us"}, 99,
			"FAIL: 1 of 1 threshold failed"},
		{"every request failed, no thresholds", received, nil, []string{refusedURL(t), "--vus", "2", "--duration", "1s"}, 0,
			"No thresholds were set, so the exit code is still 0"},
		{"every request failed, a threshold", received, nil, []string{refusedURL(t), "--vus", "2", "--duration", "1s",
			"--threshold", "http_req_failed: rate<0.5"}, 99, "FAIL: 1 of 1 threshold failed"},
		{"SIGINT, threshold passing", received, syscall.SIGINT, []string{base + "/ok", "--rate", "50", "--duration", "60s",
			"--threshold", "p(95)<5s"}, 1, "INTERRUPTED: stopped before its end (Ctrl-C or SIGTERM); on what ran, its threshold passed (the run's exit code: 1)"},
		{"SIGTERM, threshold failing", received, syscall.SIGTERM, []string{base + "/ok", "--rate", "50", "--duration", "60s",
			"--threshold", "p(95)<1us"}, 99, "INTERRUPTED: stopped before its end (Ctrl-C or SIGTERM); on what ran, 1 of 1 threshold failed (the run's exit code: 99)"},
		{"SIGINT, every request failed, no thresholds", heard, syscall.SIGINT, []string{silent, "--rate", "50", "--duration", "60s",
			"--timeout", "100ms"}, 1, "ALL FAILED: every one of the"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.counter.Store(0)
			r := runJudged(t, tc.counter, tc.signal, tc.args...)
			if r.code != tc.wantCode || !strings.Contains(r.flat, tc.want) {
				t.Errorf("exit %d, want %d and %q:\n%s", r.code, tc.wantCode, tc.want, r.stdout)
			}
			if tc.signal != nil && (!strings.Contains(r.flat, "INTERRUPTED") || r.own("status") != "interrupted") {
				t.Errorf("an interrupted run's verdict does not say so (status %v):\n%s", r.own("status"), r.stdout)
			}
			checkExitWords(t, r)
		})
	}
}

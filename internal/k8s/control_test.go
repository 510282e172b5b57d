package k8s

import (
	"archive/tar"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

func TestStatusRoundTrip(t *testing.T) {
	s := Status{Phase: PhaseFinished, Agents: 20, Ready: 19, Lost: 1, Second: 61, Requests: 123456, Failures: 7, Verdict: "thresholds failed",
		ExitCode: 99, RunDir: "20261129-120000-shop", Message: "m", Updated: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC),
		Live: Live{Elapsed: 61 * time.Second, Length: 5 * time.Minute, Rate: 1999.5, P95: 182500 * time.Microsecond, ErrorRate: 0.0125,
			InFlight: 12, VUs: 40, VUsMax: 64, Dropped: 3}}
	if got := ParseStatus(s.Data()); got != s {
		t.Errorf("ParseStatus(Data()) = %+v, want %+v", got, s)
	}
}

func TestRunStateGone(t *testing.T) {
	now := time.Now()
	fresh, stale := now.Add(-time.Second), now.Add(-time.Minute)
	for _, tc := range []struct {
		name string
		st   RunState
		want string
	}{
		{"running", RunState{Status: Status{Phase: PhaseRunning, Updated: fresh}, Job: "active"}, ""},
		{"silent", RunState{Status: Status{Phase: PhaseRunning, Updated: stale}, Job: "active"}, "it has not written its status for 1m"},
		{"job failed", RunState{Status: Status{Phase: PhaseRunning, Updated: fresh}, Job: "failed: BackoffLimitExceeded"}, "its Job failed: BackoffLimitExceeded"},
		{"pod failed", RunState{Status: Status{Phase: PhaseStarting, Updated: fresh}, Job: "active", Pod: "p", PodState: "failed: Evicted"}, "its pod p failed: Evicted"},
		{"finished long ago", RunState{Status: Status{Phase: PhaseFinished, Updated: stale}, Job: "complete"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.st.Gone(now); !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
				t.Errorf("Gone = %q, want %q", got, tc.want)
			}
		})
	}
}

// control serves a results folder holding this run's directory and an older one.
func control(t *testing.T, phase string) (addr string, dir string) {
	t.Helper()
	dir = t.TempDir()
	for _, f := range []string{"run-1/summary.json", "run-1/charts/a.svg", "old-run/summary.json"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("content of "+f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st := Status{Phase: phase}
	if phase == PhaseFinished {
		st.RunDir = "run-1"
	}
	srv := httptest.NewServer(NewControl("tok-en", func() Status { return st }, dir).Handler())
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), dir
}

func TestControlFetch(t *testing.T) {
	addr, _ := control(t, PhaseFinished)
	ctx := context.Background()
	if _, err := GetStatus(ctx, addr, "wrong"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a wrong token: %v, want 401", err)
	}
	if st, err := GetStatus(ctx, addr, "tok-en"); err != nil || st.RunDir != "run-1" {
		t.Errorf("status %+v, %v", st, err)
	}
	dest := t.TempDir()
	files, size, err := Fetch(ctx, addr, "tok-en", dest, 1<<20)
	if err != nil || files != 2 || size != int64(len("content of run-1/summary.json")+len("content of run-1/charts/a.svg")) {
		t.Fatalf("Fetch = %d files, %d bytes, %v", files, size, err)
	}
	if b, err := os.ReadFile(filepath.Join(dest, "run-1", "charts", "a.svg")); err != nil || string(b) != "content of run-1/charts/a.svg" {
		t.Errorf("fetched file: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dest, "old-run")); !os.IsNotExist(err) {
		t.Errorf("another run on the claim was fetched too: %v", err)
	}
	if _, _, err := Fetch(ctx, addr, "tok-en", t.TempDir(), 10); err == nil || !strings.Contains(err.Error(), "exceed") {
		t.Errorf("a fetch over its bound: %v", err)
	}
}

func TestControlRefusesBeforeTheRunDir(t *testing.T) {
	addr, _ := control(t, PhaseRunning)
	if _, _, err := Fetch(context.Background(), addr, "tok-en", t.TempDir(), 1<<20); err == nil || !strings.Contains(err.Error(), "409") {
		t.Errorf("fetch while running: %v, want 409", err)
	}
}

// TestFetchStaysInside: a tar naming a path outside the results folder is refused.
func TestFetchStaysInside(t *testing.T) {
	for _, name := range []string{"../evil", "/etc/evil", "a/../../evil"} {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		_ = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
		_, _ = tw.Write([]byte("x"))
		_ = tw.Close()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(b.Bytes()) }))
		dest := t.TempDir()
		_, _, err := Fetch(context.Background(), strings.TrimPrefix(srv.URL, "http://"), "t", filepath.Join(dest, "results"), 1<<20)
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), "outside the results folder") {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := os.Stat(filepath.Join(dest, "evil")); !os.IsNotExist(err) {
			t.Errorf("%s was written outside", name)
		}
	}
}

// TestRunStateWritesTheLatestSecond: `k8s status` shows the latest
// second's figures (as the terminal line does) while the run runs, and
// not before its first second or after the verdict.
func TestRunStateWritesTheLatestSecond(t *testing.T) {
	now := time.Now()
	figures := Live{Elapsed: 42 * time.Second, Rate: 2000, P95: 182 * time.Millisecond, ErrorRate: 0.006, InFlight: 12}
	for _, tc := range []struct {
		name string
		st   Status
		want bool
	}{
		{"running", Status{Phase: PhaseRunning, Live: figures}, true},
		{"no second yet", Status{Phase: PhaseRunning}, false},
		{"finished", Status{Phase: PhaseFinished, Live: figures, Verdict: "pass"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.st.Updated = now
			var b strings.Builder
			(&RunState{Namespace: "perf", Run: "r", Status: tc.st, Job: "active"}).Write(&b, now)
			line := "  latest second: 2,000 req/s · p95 182ms · errors 0.60% · in flight 12\n"
			if got := strings.Contains(b.String(), line); got != tc.want {
				t.Errorf("shows %q: %v, want %v\n%s", line, got, tc.want, b.String())
			}
		})
	}
}

// TestRunStateSaysTheRunsUnit: `k8s status` counts a gRPC run's calls and
// a WebSocket run's sessions, read back from the status ConfigMap's data
// as the coordinator wrote them; a status that names no unit (an earlier
// coordinator's) counts requests.
func TestRunStateSaysTheRunsUnit(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		name string
		unit units.Unit
		want []string
	}{
		{"http", units.Unit{}, []string{"  requests: 1,200 (3 failed) in 0:42\n", "latest second: 2,000 req/s ·"}},
		{"grpc", units.Calls, []string{"  calls: 1,200 (3 failed) in 0:42\n", "latest second: 2,000 calls/s ·"}},
		{"ws", units.Sessions, []string{"  sessions: 1,200 (3 failed) in 0:42\n", "latest second: 2,000 sessions/s ·"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := Status{Phase: PhaseRunning, Second: 42, Requests: 1200, Failures: 3, Updated: now,
				Live: Live{Elapsed: 42 * time.Second, Rate: 2000, P95: 182 * time.Millisecond, Unit: tc.unit}}
			var b strings.Builder
			(&RunState{Namespace: "perf", Run: "r", Status: ParseStatus(st.Data()), Job: "active"}).Write(&b, now)
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}

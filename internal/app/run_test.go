package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// runYAML parses a test written into a temp dir (with extra files) and runs it.
func runYAML(t *testing.T, yaml string, files map[string]string) (RunResult, string, map[string]any) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "test.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := plan.ParseFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: filepath.Join(dir, "results"), Out: &out, Quiet: true, Version: "test"})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(res.Dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var summary map[string]any
	if err := json.Unmarshal(b, &summary); err != nil {
		t.Fatal(err)
	}
	return res, out.String(), summary
}

// metric returns summary.json's metrics[name][field].
func metric(s map[string]any, name, field string) float64 {
	m, _ := s["metrics"].(map[string]any)
	f, _ := m[name].(map[string]any)
	v, _ := f[field].(float64)
	return v
}

func TestLoginFlowWithCSVUsers(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ User string }
		json.NewDecoder(r.Body).Decode(&in)
		fmt.Fprintf(w, `{"token": "tok-%s"}`, in.User)
	})
	mux.HandleFunc("GET /orders", func(w http.ResponseWriter, r *http.Request) {
		user, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer tok-")
		if !ok {
			http.Error(w, `{"error": "no token"}`, http.StatusUnauthorized)
			return
		}
		mu.Lock()
		seen[user]++
		mu.Unlock()
		fmt.Fprintf(w, `{"user": %q, "orders": [1, 2]}`, user)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	yaml := fmt.Sprintf(`
base_url: %s
thresholds:
  checks: ["rate == 1"]
  http_req_failed: ["rate == 0"]
scenarios:
  shoppers:
    model: iterations
    vus: 3
    iterations: 9
    data: {file: users.csv, mode: unique}
    flow:
      - post: /login
        json: {user: "{{ user }}", password: "{{ password }}"}
        extract:
          token: {json: $.token}
      - get: /orders
        headers: {Authorization: "Bearer {{ token }}"}
        check:
          - status: 200
          - json: $.orders[1]
            eq: 2
`, srv.URL)
	csv := "user,password\n"
	for i := range 9 {
		csv += fmt.Sprintf("u%d,p%d\n", i, i)
	}
	res, text, s := runYAML(t, yaml, map[string]string{"users.csv": csv})
	if res.ExitCode != ExitOK || res.Status != StatusCompleted {
		t.Fatalf("exit %d status %s\n%s", res.ExitCode, res.Status, text)
	}
	if len(seen) != 9 {
		t.Fatalf("authorised calls came from %d users, want each of the 9 CSV rows once: %v", len(seen), seen)
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("user %s used %d times in unique mode", u, n)
		}
	}
	if got := metric(s, "http_reqs", "count"); got != 18 {
		t.Errorf("http_reqs = %v, want 18", got)
	}
	if got := metric(s, "checks", "passes"); got != 27 { // extract token + 2 checks, 9 times
		t.Errorf("check passes = %v, want 27", got)
	}
}

func TestAbortOnFailStopsTheRun(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	yaml := fmt.Sprintf(`
base_url: %s
thresholds:
  http_req_failed:
    - threshold: "rate < 0.5"
      abort_on_fail: true
      delay_abort_eval: 1s
scenarios:
  breakpoint:
    model: arrival-rate
    rate: 20
    duration: 60s
    flow:
      - get: /
`, srv.URL)
	start := time.Now()
	res, text, s := runYAML(t, yaml, nil)
	if el := time.Since(start); el > 15*time.Second {
		t.Fatalf("the run went on for %v after its threshold failed", el)
	}
	if res.Status != StatusAborted || res.ExitCode != ExitThresholdFailed {
		t.Fatalf("status %s exit %d, want aborted and 99\n%s", res.Status, res.ExitCode, text)
	}
	if !strings.Contains(text, "stopped the run") {
		t.Errorf("summary does not say which threshold stopped the run:\n%s", text)
	}
	if got := metric(s, "http_req_failed", "value"); got != 1 {
		t.Errorf("http_req_failed = %v, want 1", got)
	}
}

func TestDroppedIterationsAreReportedHonestly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond) // service time, not synchronisation
	}))
	defer srv.Close()
	yaml := fmt.Sprintf(`
base_url: %s
scenarios:
  overload:
    model: arrival-rate
    rate: 100
    duration: 2s
    pre_allocated_vus: 2
    max_vus: 2
    flow:
      - get: /
`, srv.URL)
	_, text, s := runYAML(t, yaml, nil)
	dropped, reqs := metric(s, "dropped_iterations", "count"), metric(s, "http_reqs", "count")
	if dropped+reqs < 195 || dropped+reqs > 205 || dropped < 120 {
		t.Fatalf("dropped %v + requests %v: want about 200 arrivals, most dropped", dropped, reqs)
	}
	if rate := metric(s, "http_reqs", "rate"); rate > 30 {
		t.Errorf("reported %v req/s; 2 VUs at 100 ms can serve about 20", rate)
	}
	if !strings.Contains(text, "dropped for lack of a free VU") || !strings.Contains(text, "optimistic") {
		t.Errorf("summary does not warn about drops:\n%s", text)
	}
}

func TestNoMetricsCountsOnly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	dir := t.TempDir()
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf("base_url: %s\nscenarios:\n  s:\n    model: iterations\n    vus: 2\n    iterations: 50\n    flow:\n      - get: /\n", srv.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sj := filepath.Join(dir, "s.json")
	res, err := Run(context.Background(), RunConfig{Plan: p, ResultsDir: filepath.Join(dir, "results"), Out: &out, NoMetrics: true, SummaryJSON: sj})
	if err != nil || res.ExitCode != ExitOK {
		t.Fatalf("exit %d err %v", res.ExitCode, err)
	}
	b, _ := os.ReadFile(sj)
	var s map[string]any
	json.Unmarshal(b, &s)
	if got := metric(s, "http_reqs", "count"); got != 50 {
		t.Fatalf("http_reqs %v, want 50 (%s)", got, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "results")); !os.IsNotExist(err) {
		t.Errorf("a run directory was written with the bookkeeping off")
	}
}

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// figures4JSON is the part of summary.json these tests read.
type figures4JSON struct {
	Metrics struct {
		VUs struct {
			Min   int64 `json:"min"`
			Value int64 `json:"value"`
		} `json:"vus"`
	} `json:"metrics"`
	Loadlens struct {
		DurationMS   float64 `json:"duration_ms"`
		Redirects    int64   `json:"redirects"`
		RequestsSent int64   `json:"requests_sent"`
		Endpoints    []struct {
			Requests  int64   `json:"requests"`
			Redirects int64   `json:"redirects"`
			RPS       float64 `json:"rps"`
			ActiveS   float64 `json:"active_s"`
		} `json:"endpoints"`
	} `json:"loadlens"`
}

func readFigures4JSON(t *testing.T, path string) figures4JSON {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s figures4JSON
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// TestASlowEndpointsRateIsOverTheTimeItWasAsked checks an endpoint's
// ACTIVE and RPS against the server's own count: 4 VUs asking an endpoint
// that answers (or is cut off by the timeout) after 1.5s, for 1s, send 4
// requests over 1.5s (a VU sends its next when its last has ended). A trial saw `ACTIVE 519ms RPS 7.71` for this (the
// span started at the second the first request ended in), while the
// headline said 2.63/s.
func TestASlowEndpointsRateIsOverTheTimeItWasAsked(t *testing.T) {
	tests := []struct {
		name  string
		slow  func(w http.ResponseWriter, r *http.Request) // how the endpoint takes its 1.5s
		extra []string
	}{
		{"answered after 1.5s", func(w http.ResponseWriter, r *http.Request) {
			select { // the target's own slowness, not a synchronisation
			case <-time.After(1500 * time.Millisecond):
			case <-r.Context().Done():
			}
		}, nil},
		{"timed out after 1.5s", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(time.Minute):
			case <-r.Context().Done():
			}
		}, []string{"--timeout", "1500ms"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got.Add(1)
				tt.slow(w, r)
			}))
			defer srv.Close()
			dir := t.TempDir()
			args := append([]string{"run", srv.URL + "/slow", "--vus", "4", "--duration", "1s", "--no-dashboard", "--quiet",
				"--results", "res", "--summary-json", "s.json"}, tt.extra...)
			res := loadlens(t, dir, args...)
			s := readFigures4JSON(t, filepath.Join(dir, "s.json"))
			if len(s.Loadlens.Endpoints) != 1 {
				t.Fatalf("exit %d, endpoints %+v\n%s%s", res.code, s.Loadlens.Endpoints, res.stdout, res.stderr)
			}
			ep := s.Loadlens.Endpoints[0]
			served, run := got.Load(), s.Loadlens.DurationMS/1000
			if ep.Requests != served || served != 4 {
				t.Fatalf("the endpoint shows %d requests; the server got %d, want 4\n%s", ep.Requests, served, res.stdout)
			}
			// The requests were sent at the run's start and ended 1.5s later, when the VUs would
			// have sent their next: the span is that, within the run.
			if ep.ActiveS < 1.5 || ep.ActiveS > min(run, 1.6) {
				t.Errorf("active_s %.3f, want 1.5s to 1.6s (the run lasted %.3fs): the requests were sent at its start\n%s", ep.ActiveS, run, res.stdout)
			}
			if want := float64(served) / 1.5; ep.RPS > want*1.05 || ep.RPS < want*0.95 {
				t.Errorf("rps %.2f, want %d requests over 1.5s = %.2f\n%s", ep.RPS, served, want, res.stdout)
			}
			// The terminal and the rebuilt summary say the same span.
			rebuilt := loadlens(t, dir, "summary", onlyRunDir(t, filepath.Join(dir, "res")), "--json")
			var again figures4JSON
			if err := json.Unmarshal([]byte(rebuilt.stdout), &again); err != nil || len(again.Loadlens.Endpoints) != 1 ||
				again.Loadlens.Endpoints[0].ActiveS != ep.ActiveS {
				t.Errorf("the rebuilt summary.json (%v) has endpoints %+v, want active_s %v", err, again.Loadlens.Endpoints, ep.ActiveS)
			}
		})
	}
}

// TestARebuiltSummarySaysWhatTheRunSaid checks that `loadlens summary`
// prints the run's summary as the run did, its notes included: a trial's
// rebuilt summary lost abort_on_fail's note. The only difference allowed is
// the note the run printed live, before its summary.
func TestARebuiltSummarySaysWhatTheRunSaid(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%2 == 0 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := fmt.Sprintf(`name: abort
base_url: %s
thresholds:
  http_req_failed:
    - threshold: "rate < 0.01"
      abort_on_fail: true
      delay_abort_eval: 1s
scenarios:
  s:
    model: arrival-rate
    rate: 50
    duration: 20s
    flow:
      - get: /half
`, srv.URL)
	if err := os.WriteFile(filepath.Join(dir, "abort.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	res := loadlens(t, dir, "run", "abort.yaml", "--no-dashboard", "--quiet", "--results", "res")
	if res.code != 99 || !strings.Contains(res.stdout, "with abort_on_fail") {
		t.Fatalf("exit %d, want 99 with abort_on_fail's note\n%s%s", res.code, res.stdout, res.stderr)
	}
	run := onlyRunDir(t, filepath.Join(dir, "res"))
	rel, err := filepath.Rel(dir, run) // as the run names it
	if err != nil {
		t.Fatal(err)
	}
	sum := loadlens(t, dir, "summary", rel)
	if sum.code != 0 {
		t.Fatalf("summary exit %d: %s", sum.code, sum.stderr)
	}
	// The run's output is its live notes, then the summary that `summary` prints again.
	live, printed, ok := strings.Cut(res.stdout, "\n  abort ·")
	if !ok || !strings.HasPrefix(sum.stdout, "\n  abort ·") {
		t.Fatalf("no summary heading in\n%s\nor\n%s", res.stdout, sum.stdout)
	}
	if printed = "\n  abort ·" + printed; sum.stdout != printed {
		t.Errorf("the rebuilt summary differs from the run's:\n--- run\n%s\n--- summary\n%s", printed, sum.stdout)
	}
	if !strings.Contains(live, "with abort_on_fail") || strings.Count(sum.stdout, "with abort_on_fail") != 1 {
		t.Errorf("abort_on_fail's note: live %q; the rebuilt summary has it %d times, want once",
			live, strings.Count(sum.stdout, "with abort_on_fail"))
	}
	// The rebuilt report says it too.
	if err := os.Remove(filepath.Join(run, "report.html")); err != nil {
		t.Fatal(err)
	}
	if rep := loadlens(t, dir, "report", run); rep.code != 0 {
		t.Fatalf("report exit %d: %s", rep.code, rep.stderr)
	}
	html, err := os.ReadFile(filepath.Join(run, "report.html"))
	if err != nil || !strings.Contains(string(html), "with abort_on_fail") {
		t.Errorf("the rebuilt report.html (%v) does not carry abort_on_fail's note", err)
	}
}

// TestTheVUsGaugeIsOverTheSecondsTheVUsRan checks that a steady 2-VU run
// passes `vus: min>0` and `vus: value>0`: a trial's failed with min=0 and
// value=0, read from the last second, collected after the VUs stopped.
func TestTheVUsGaugeIsOverTheSecondsTheVUsRan(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	dir := t.TempDir()
	res := loadlens(t, dir, "run", srv.URL+"/x", "--vus", "2", "--duration", "2s", "--no-dashboard", "--quiet",
		"--results", "res", "--summary-json", "s.json", "--threshold", "vus: min>0", "--threshold", "vus: value>0")
	if res.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", res.code, res.stdout, res.stderr)
	}
	s := readFigures4JSON(t, filepath.Join(dir, "s.json"))
	if s.Metrics.VUs.Min < 1 || s.Metrics.VUs.Value < 1 || s.Metrics.VUs.Min > 2 || s.Metrics.VUs.Value > 2 {
		t.Errorf("summary.json vus min %d, value %d; want 1 or 2 (2 VUs ran)", s.Metrics.VUs.Min, s.Metrics.VUs.Value)
	}
}

// TestRedirectHopsAreCounted checks the redirects followed against the
// server's own count: every chain is one request in the figures, as k6
// has it, but the target got two, and a trial found no figure saying so.
func TestRedirectHopsAreCounted(t *testing.T) {
	var starts, hops atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		starts.Add(1)
		http.Redirect(w, r, "/ok", http.StatusFound)
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { hops.Add(1) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dir := t.TempDir()
	res := loadlens(t, dir, "run", srv.URL+"/start", "--rate", "20", "--duration", "2s", "--no-dashboard", "--quiet",
		"--results", "res", "--summary-json", "s.json")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	s := readFigures4JSON(t, filepath.Join(dir, "s.json"))
	chains, followed := starts.Load(), hops.Load()
	if chains == 0 || len(s.Loadlens.Endpoints) != 1 {
		t.Fatalf("the server got %d chains; endpoints %+v", chains, s.Loadlens.Endpoints)
	}
	ep := s.Loadlens.Endpoints[0]
	if ep.Requests != chains || ep.Redirects != followed || s.Loadlens.Redirects != followed || s.Loadlens.RequestsSent != chains+followed {
		t.Errorf("summary.json: %d requests, %d redirects (endpoint %d), %d sent; the server got %d chains and %d redirects",
			ep.Requests, s.Loadlens.Redirects, ep.Redirects, s.Loadlens.RequestsSent, chains, followed)
	}
	want := fmt.Sprintf("redirects followed: %d, so the target got %d requests", followed, chains+followed)
	if !strings.Contains(strings.Join(strings.Fields(res.stdout), " "), want) {
		t.Errorf("the summary does not say %q\n%s", want, res.stdout)
	}
	html, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, "res")), "report.html"))
	if err != nil || !strings.Contains(string(html), want) {
		t.Errorf("report.html (%v) does not say %q", err, want)
	}
	for _, line := range strings.Split(res.stdout, "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
}

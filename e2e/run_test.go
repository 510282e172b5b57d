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
)

func target(t *testing.T) *httptest.Server {
	var n atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"ok": true}`) })
	mux.HandleFunc("GET /flaky", func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%10 == 0 {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "ok")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func writeTest(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// k6Summary is the part of summary.json that k6 tooling reads.
type k6Summary struct {
	Metrics map[string]map[string]any `json:"metrics"`
}

func readSummary(t *testing.T, path string) k6Summary {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s k6Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	return s
}

func TestRunExitCodes(t *testing.T) {
	srv := target(t)
	test := func(threshold string) string {
		return fmt.Sprintf(`
base_url: %s
thresholds:
  http_req_failed: [%q]
scenarios:
  smoke:
    model: iterations
    vus: 2
    iterations: 40
    flow:
      - get: /flaky
        check:
          - status: 200
`, srv.URL, threshold)
	}
	cases := []struct {
		name       string
		file       string // test file contents; empty for URL mode
		args       []string
		wantCode   int
		wantStderr string
		wantFailed float64 // http_req_failed value in summary.json; -1 to skip
	}{
		{"thresholds pass", test("rate < 0.2"), nil, 0, "", 0.1},
		{"a threshold fails", test("rate == 0"), nil, 99, "", 0.1},
		{"bad test file", "scenarios:\n  a:\n    model: vus\n    vus: two\n    duration: 5s\n    flow:\n      - get: /x\n", nil, 2, "t.yaml:4:10: scenarios.a.vus", -1},
		{"URL mode passes", "", []string{srv.URL + "/ok", "--vus", "2", "--duration", "2s", "--threshold", "p(95)<2s"}, 0, "", 0},
		{"URL mode threshold fails", "", []string{srv.URL + "/flaky", "--rate", "50", "--duration", "2s", "--threshold", "http_req_failed: rate<0.01"}, 99, "", 0.1},
		{"unknown flag", "", []string{srv.URL + "/ok", "--rat", "5"}, 2, "flag provided but not defined: -rat", -1},
		{"URL flag with a test file", test("rate < 1"), []string{"--rate", "5"}, 2, "--rate applies to URL mode", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"run", "--quiet", "--results", "results"}
			if c.file != "" {
				args = append(args, writeTest(t, dir, "t.yaml", c.file))
			}
			args = append(args, c.args...)
			r := loadlens(t, dir, args...)
			if r.code != c.wantCode {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, c.wantCode, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, c.wantStderr) {
				t.Fatalf("stderr %q does not mention %q", r.stderr, c.wantStderr)
			}
			if c.wantFailed < 0 {
				return
			}
			run := onlyRunDir(t, filepath.Join(dir, "results"))
			if !strings.Contains(r.stdout, filepath.Join("results", filepath.Base(run))) {
				t.Errorf("the run directory %s is not printed:\n%s", run, r.stdout)
			}
			s := readSummary(t, filepath.Join(run, "summary.json"))
			reqs, _ := s.Metrics["http_reqs"]["count"].(float64)
			failed, _ := s.Metrics["http_req_failed"]["value"].(float64)
			if reqs == 0 || failed < c.wantFailed-0.02 || failed > c.wantFailed+0.02 {
				t.Fatalf("summary.json: %v requests, failed rate %v; want failed ≈ %v", reqs, failed, c.wantFailed)
			}
			for _, k := range []string{"avg", "min", "med", "max", "p(90)", "p(95)", "p(99)"} {
				if _, ok := s.Metrics["http_req_duration"][k]; !ok {
					t.Errorf("summary.json http_req_duration lacks %q", k)
				}
			}
		})
	}
}

func TestValidateExamples(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	if len(files) < 4 {
		t.Fatalf("found %d examples", len(files))
	}
	for _, f := range files {
		if r := loadlens(t, ".", "validate", f); r.code != 0 || !strings.Contains(r.stdout, "ok") {
			t.Errorf("validate %s: exit %d\n%s%s", f, r.code, r.stdout, r.stderr)
		}
	}
}

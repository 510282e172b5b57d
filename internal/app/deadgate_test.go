package app

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestGateFailsARunInWhichEveryRequestFailed: thresholds on counts and
// gauges (requests, iterations, VUs, bytes, drops) hold as well on a target
// that answers nothing, so a run with thresholds in which no request
// succeeded fails its gate: exit 99, summary.json passed false, a JUnit
// failure and report.html's FAIL, however its thresholds came out. Without
// thresholds it still exits 0, and a run with one success passes.
func TestGateFailsARunInWhichEveryRequestFailed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close() // nothing listens: every connection is refused
	var served atomic.Int64
	errs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer errs.Close()
	var oneOK atomic.Int64
	once := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if oneOK.Add(1) > 1 {
			http.Error(w, "down", http.StatusServiceUnavailable)
		}
	}))
	defer once.Close()

	tests := []struct {
		name       string
		base       string
		thresholds string // YAML under thresholds:; "" for none
		exit       int
		passed     bool
		junitFails int
		want       string // in the summary
	}{
		{"refused, request count passes", dead, `http_reqs: ["count>1"]`, 99, false, 1,
			"a gate never passes a run in which no request succeeded, though its threshold passed"},
		{"refused, iterations and vus pass", dead, "iterations: [\"count>1\"]\n  vus: [\"value>0\"]\n  data_sent: [\"count>=0\"]", 99, false, 1,
			"though all 3 thresholds passed"},
		{"refused, drops pass", dead, `dropped_iterations: ["count<1000"]`, 99, false, 1, "FAIL: every one of the"},
		{"refused, a threshold fails too", dead, `http_req_failed: ["rate<0.01"]`, 99, false, 1,
			"FAIL: 1 of 1 threshold failed, and every one of the 5 requests failed; a gate never passes"},
		{"503 every time, bytes received pass", errs.URL, `data_received: ["count>0"]`, 99, false, 1, "no request succeeded"},
		{"refused, no thresholds", dead, "", 0, true, 0, "No thresholds were set, so the exit code is still 0"},
		{"one success", once.URL, `http_reqs: ["count>1"]`, 0, true, 0, "PASS: 1 threshold passed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			oneOK.Store(0)
			th := ""
			if tc.thresholds != "" {
				th = "thresholds:\n  " + tc.thresholds + "\n"
			}
			yaml := fmt.Sprintf("base_url: %s\n%sscenarios:\n  s:\n    model: iterations\n    iterations: 5\n    vus: 1\n    flow:\n      - get: /\n", tc.base, th)
			dir := t.TempDir()
			path := filepath.Join(dir, "test.yaml")
			if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := plan.ParseFile(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			junit := filepath.Join(dir, "junit.xml")
			res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: filepath.Join(dir, "results"), Out: &out, Version: "test", JUnit: junit})
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, out.String())
			}
			text := out.String()
			if res.ExitCode != tc.exit || res.Passed != tc.passed {
				t.Errorf("exit %d passed %v, want %d %v\n%s", res.ExitCode, res.Passed, tc.exit, tc.passed, text)
			}
			if flat := strings.Join(strings.Fields(text), " "); !strings.Contains(flat, tc.want) {
				t.Errorf("the summary lacks %q:\n%s", tc.want, text)
			}
			if tc.exit == 0 && strings.Contains(text, "FAIL:") || tc.exit != 0 && strings.Contains(text, "PASS:") {
				t.Errorf("the verdict contradicts exit %d:\n%s", tc.exit, text)
			}
			b, err := os.ReadFile(filepath.Join(res.Dir, "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Loadlens struct {
					Passed bool `json:"passed"`
				} `json:"loadlens"`
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if s.Loadlens.Passed != tc.passed {
				t.Errorf("summary.json passed %v, want %v", s.Loadlens.Passed, tc.passed)
			}
			var j struct {
				Failures int `xml:"failures,attr"`
			}
			if b, err = os.ReadFile(junit); err != nil {
				t.Fatal(err)
			}
			if err := xml.Unmarshal(b, &j); err != nil {
				t.Fatal(err)
			}
			if j.Failures != tc.junitFails {
				t.Errorf("JUnit has %d failures, want %d:\n%s", j.Failures, tc.junitFails, b)
			}
			html, err := os.ReadFile(filepath.Join(res.Dir, ReportFile))
			if err != nil {
				t.Fatal(err)
			}
			verdict := "PASS"
			switch {
			case tc.thresholds == "":
				verdict = "NO THRESHOLDS"
			case tc.exit != 0:
				verdict = "FAIL"
			}
			if want := `id="verdict" class="verdict `; !strings.Contains(string(html), want) || !strings.Contains(string(html), ">"+verdict+"</span>") {
				t.Errorf("report.html's verdict is not %s", verdict)
			}
		})
	}
	if served.Load() == 0 {
		t.Error("the 503 server saw no request")
	}
}

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestGateThroughTheBinary runs the gate's defects as a user meets them:
// a dead target must not pass a count threshold (it printed "ALL FAILED"
// then "PASS" and exited 0), --no-metrics must not judge nothing and exit
// 0, durations that overflow when added must be refused, and a key
// indented too deep must be named at its own line. Every line printed
// fits in 100 columns.
func TestGateThroughTheBinary(t *testing.T) {
	dead := refusedURL(t)
	tests := []struct {
		name  string
		yaml  string // written to test.yaml, which {test} in args names
		args  []string
		code  int
		want  []string // in stdout and stderr, flattened
		files bool     // the run wrote summary.json, report.html and junit.xml, which must agree with code
	}{
		{"dead target, a count threshold that holds", "",
			[]string{"run", dead, "--duration", "1s", "--rate", "50", "--threshold", "http_reqs: count>10",
				"--no-dashboard", "--junit", "junit.xml"}, 99,
			[]string{"✓ http_reqs count>10 count=50", "ALL FAILED: every one of the 50 requests failed. FAIL: every one of the 50 requests " +
				"failed; a gate never passes a run in which no request succeeded, though its threshold passed"}, true},
		{"dead target, no thresholds", "",
			[]string{"run", dead, "--duration", "1s", "--rate", "20", "--no-dashboard", "--junit", "junit.xml"}, 0,
			[]string{"No thresholds were set, so the exit code is still 0"}, true},
		{"--no-metrics with --threshold", "",
			[]string{"run", dead, "--duration", "1s", "--rate", "5", "--no-metrics", "--threshold", "http_req_duration: p(95)<1ms"}, 2,
			[]string{"--threshold: --no-metrics measures no thresholds: drop --no-metrics or the thresholds"}, false},
		{"--no-metrics with a test file's thresholds",
			"base_url: " + dead + "\n\nthresholds:\n  http_req_duration: [\"p(95)<1ms\"]\nscenarios:\n  s: {rate: 5, duration: 1s, flow: [get: /]}\n",
			[]string{"run", "test.yaml", "--no-metrics"}, 2,
			[]string{"test.yaml:3:1: thresholds: --no-metrics measures no thresholds: drop --no-metrics or the thresholds"}, false},
		{"durations that wrap when added",
			"base_url: " + dead + "\nscenarios:\n  s:\n    model: vus\n    start_vus: 1\n    stages:\n      - {duration: 2000000h, target: 1}\n" +
				"      - {duration: 2000000h, target: 1}\n    flow: [get: /]\n",
			[]string{"run", "test.yaml", "--no-dashboard"}, 2,
			[]string{"test.yaml:7:20: scenarios.s.stages[0].duration: the scenario would last 2000000h"}, false},
		{"a graceful stop past the bound",
			"base_url: " + dead + "\nscenarios:\n  s:\n    rate: 1\n    duration: 999h\n    graceful_stop: 2562047h\n    flow: [get: /]\n",
			[]string{"validate", "test.yaml"}, 2,
			[]string{"test.yaml:6:20: scenarios.s.graceful_stop: the scenario would last 2563046h (start_time + load + graceful stops): " +
				"at most 1000h (about 41 days)"}, false},
		{"a key indented too deep",
			"base_url: " + dead + "\nscenarios:\n  s:\n    rate: 1\n    duration: 1s\n     flow:\n      - get: /\n",
			[]string{"validate", "test.yaml"}, 2,
			[]string{`test.yaml:6:6: scenarios.s: YAML syntax error: mapping value is not allowed in this context (line 6 is indented under "duration" on line 5, which has a value: line 6 too deep, or line 5 too shallow?)`}, false},
		{"a step's key indented too little",
			"base_url: " + dead + "\nscenarios:\n  s:\n    rate: 1\n    duration: 1s\n    flow:\n      - get: /\n        name: x\n      check: {status: 200}\n",
			[]string{"validate", "test.yaml"}, 2,
			[]string{`test.yaml:9:7: scenarios.s.flow[0]: YAML syntax error: value is not allowed in this context (indented 6 spaces where "name" on line 8 is at 8: indented too little?)`}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.yaml != "" {
				if err := os.WriteFile(filepath.Join(dir, "test.yaml"), []byte(tc.yaml), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := loadlens(t, dir, tc.args...)
			all := r.stdout + r.stderr
			flat := strings.Join(strings.Fields(all), " ")
			if r.code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", r.code, tc.code, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(flat, w) {
					t.Errorf("the output lacks %q:\n%s", w, all)
				}
			}
			for i, line := range strings.Split(r.stdout, "\n") {
				if n := utf8.RuneCountInString(line); n > 100 {
					t.Errorf("stdout line %d is %d columns: %q", i+1, n, line)
				}
			}
			if tc.code == 0 && strings.Contains(all, "FAIL:") || tc.code != 0 && strings.Contains(all, "PASS") {
				t.Errorf("the verdict contradicts exit %d:\n%s", tc.code, all)
			}
			if !tc.files {
				if _, err := os.Stat(filepath.Join(dir, "results")); err == nil {
					t.Errorf("a refused run made a results directory")
				}
				return
			}
			run := onlyRunDir(t, filepath.Join(dir, "results"))
			b, err := os.ReadFile(filepath.Join(run, "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Loadlens struct {
					Passed   bool   `json:"passed"`
					Verdict  string `json:"verdict"`
					GateNote string `json:"gate_note"`
				} `json:"loadlens"`
			}
			if err := json.Unmarshal(b, &s); err != nil || s.Loadlens.Passed != (tc.code == 0) {
				t.Errorf("summary.json passed %v (%v); the run exited %d", s.Loadlens.Passed, err, tc.code)
			}
			// summary.json alone says why: its verdict, and the gate's note when every request failed
			wantVerdict := map[int]string{0: "NO THRESHOLDS", 99: "FAIL"}[tc.code]
			if s.Loadlens.Verdict != wantVerdict || (tc.code == 99) != strings.Contains(s.Loadlens.GateNote, "no request succeeded") {
				t.Errorf("summary.json verdict %q, gate_note %q; the run exited %d", s.Loadlens.Verdict, s.Loadlens.GateNote, tc.code)
			}
			ju, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`<testsuites [^>]*failures="(\d+)"`).FindSubmatch(ju)
			if m == nil || (string(m[1]) == "0") != (tc.code == 0) {
				t.Errorf("JUnit's failures disagree with exit %d:\n%s", tc.code, ju)
			}
			html, err := os.ReadFile(filepath.Join(run, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			verdict := map[int]string{0: "NO THRESHOLDS", 99: "FAIL"}[tc.code]
			if !regexp.MustCompile(`id="verdict" class="verdict [^"]*">` + verdict + `<`).Match(html) {
				t.Errorf("report.html's verdict is not %s", verdict)
			}
		})
	}
}

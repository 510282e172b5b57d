package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateCountsInTheRightNumber(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"one of each", "base_url: http://127.0.0.1:9\nthresholds: {http_req_failed: [\"rate < 0.01\"]}\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n      - get: /x\n        check: [{status: 200}]\n",
			"ok — 1 scenario, 1 endpoint, 1 check, 1 threshold"},
		{"none and two", "base_url: http://127.0.0.1:9\nscenarios:\n  a: {vus: 1, duration: 1s, flow: [get: /x]}\n  b: {vus: 1, duration: 1s, flow: [get: /y]}\n",
			"ok — 2 scenarios, 2 endpoints, 0 checks, 0 thresholds"},
		// the scenario's "at most 5s" once left out a setup that looped for minutes
		{"setup and teardown bounded", "base_url: http://127.0.0.1:9\nsetup_timeout: 10s\nsetup: [get: /a, get: /b]\nteardown: [get: /c]\nscenarios:\n  s: {iterations: 1, max_duration: 5s, flow: [get: /x]}\n",
			"  s: iterations: 1 shared by 1 VU (at most 5s)\n  setup: 2 steps, at most 10s (setup_timeout)\n  teardown: 1 step, at most 1m (teardown_timeout)\n  the run: at most 1m45s (the setup, the scenarios with their graceful stops, the teardown)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.yaml")
			if err := os.WriteFile(path, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := main("validate", path)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, output %q (%s); want %q", code, out, errs, tt.want)
			}
		})
	}
}

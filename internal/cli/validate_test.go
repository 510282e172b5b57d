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

package dist

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/loadlens/loadlens/internal/app"
)

// TestMergedGateFailsWhenEveryRequestFailed: the coordinator judges the
// merged run as one process does; a count threshold that holds on a
// target that refused every connection of every agent does not pass it:
// exit 99 and summary.json passed false. Without thresholds it exits 0.
func TestMergedGateFailsWhenEveryRequestFailed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close() // nothing listens: every connection is refused
	tests := []struct {
		name, thresholds string
		exit             int
		passed           bool
	}{
		{"a count threshold that holds", "thresholds:\n  http_reqs: [\"count>5\"]\n", app.ExitThresholdFailed, false},
		{"no thresholds", "", app.ExitOK, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTest(t, fmt.Sprintf("name: dead\nbase_url: http://%s\n%sscenarios:\n  s:\n    rate: 20\n    duration: 1s\n    flow:\n      - get: /\n",
				dead, tc.thresholds), nil)
			res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(startAgents(t, 2, token, nil)), Token: token})
			if err != nil {
				t.Fatalf("Coordinate: %v\n%s", err, out)
			}
			if res.ExitCode != tc.exit || res.Passed != tc.passed {
				t.Errorf("exit %d passed %v, want %d %v\n%s", res.ExitCode, res.Passed, tc.exit, tc.passed, out)
			}
			if sent := totalRequests(readRun(t, res.Dir)); sent < 10 {
				t.Errorf("the agents sent %d requests, want about 20", sent)
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
			if err := json.Unmarshal(b, &s); err != nil || s.Loadlens.Passed != tc.passed {
				t.Errorf("summary.json passed %v (%v), want %v", s.Loadlens.Passed, err, tc.passed)
			}
		})
	}
}

package cli

import (
	"strings"
	"testing"
)

// TestEstimateRateFlagsNameTheRunsUnit: estimate's rate flags say their
// rate is in the unit the run counts, not req/s alone: calls/s for a gRPC
// test, sessions/s for a WebSocket or SSE one.
func TestEstimateRateFlagsNameTheRunsUnit(t *testing.T) {
	code, stdout, _ := main("estimate", "-h")
	if code != 0 {
		t.Fatalf("estimate -h exits %d", code)
	}
	help := map[string]string{}
	for _, b := range flagHelp.FindAllStringSubmatch(stdout, -1) {
		help[b[1]] = strings.Join(strings.Fields(b[2]), " ")
	}
	for _, tc := range []struct{ flag, want string }{
		{"from-run", "req/s"}, {"from-run", "calls/s for gRPC"}, {"from-run", "sessions/s for WebSocket/SSE"},
		{"per-instance", "req/s"}, {"per-instance", "calls/s"}, {"per-instance", "sessions/s"},
	} {
		if !strings.Contains(help[tc.flag], tc.want) {
			t.Errorf("-%s's help %q lacks %q", tc.flag, help[tc.flag], tc.want)
		}
	}
}

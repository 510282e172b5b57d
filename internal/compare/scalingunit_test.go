package compare

import (
	"math"
	"regexp"
	"strings"
	"testing"
)

// httpWord finds the HTTP words a gRPC or WebSocket run's reading must
// not use: "request(s)" and "req/s".
var httpWord = regexp.MustCompile(`\brequests?\b|\breq/s\b`)

// TestScalingSpeaksTheRunsProtocol compares two loads of a gRPC test and
// of a WebSocket one, closed and open: the Little's-law reading counts
// calls or sessions (units.ForProtocol), never requests, and an HTTP
// test's reading still counts requests.
func TestScalingSpeaksTheRunsProtocol(t *testing.T) {
	tests := []struct {
		name, protocol, model string
		want                  []string
	}{
		{"gRPC, VUs", "grpc", "vus", []string{"completed 3,", "calls/s", "time per call", "mean call duration"}},
		{"gRPC, a rate", "grpc", "arrival-rate", []string{"calls/s", "calls in flight", "the calls."}},
		{"WebSocket, VUs", "ws", "vus", []string{"sessions/s", "time per session", "mean session duration"}},
		{"WebSocket, a rate", "ws", "arrival-rate", []string{"sessions/s", "sessions in flight", "the sessions."}},
		{"HTTP, a rate", "", "arrival-rate", []string{"req/s", "requests in flight"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(level, meanMs float64, seed uint64, name string) Input {
				s := synth{seed: seed, model: tc.model, load: ramp(level, 0, 40, 0), think: 1e-9,
					medians: []float64{meanMs / math.Exp(0.08), meanMs / math.Exp(0.08)}}
				if tc.model == "arrival-rate" {
					s.load = ramp(level, 5, 40, 0)
				}
				in := s.input(name)
				for i := range in.Run.Layout.Endpoints {
					in.Run.Layout.Endpoints[i].Protocol = tc.protocol
				}
				return in
			}
			a, b := run(1500, 405, 1, "a"), run(3000, 811, 2, "b")
			if tc.model == "arrival-rate" {
				a, b = run(100, 10, 1, "a"), run(200, 40, 2, "b")
			}
			r, err := Compare([]Input{a, b}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Scaling) != 1 {
				t.Fatalf("scaling %+v, want one reading", r.Scaling)
			}
			text := r.Scaling[0].Text
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("the reading lacks %q:\n%s", w, text)
				}
			}
			if http := tc.protocol == ""; !http && httpWord.MatchString(text) {
				t.Errorf("a %s run's reading says %q:\n%s", tc.protocol, httpWord.FindString(text), text)
			}
			if tc.protocol != "" && strings.Contains(r.Runs[1].LoadUnit+r.Scaling[0].ThroughputUnit, "req") {
				t.Errorf("load unit %q, throughput unit %q: a %s run counts no requests", r.Runs[1].LoadUnit, r.Scaling[0].ThroughputUnit, tc.protocol)
			}
		})
	}
}

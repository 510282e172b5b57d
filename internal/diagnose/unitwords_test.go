package diagnose

import (
	"strings"
	"testing"
)

// asProtocol is fixture fix with every endpoint of protocol ("" HTTP,
// "grpc", "ws"), so the run counts requests, calls or sessions.
func asProtocol(protocol string, fix func(*testing.T) Input) func(*testing.T) Input {
	return func(t *testing.T) Input {
		in := fix(t)
		for i := range in.Run.Layout.Endpoints {
			in.Run.Layout.Endpoints[i].Protocol = protocol
		}
		return in
	}
}

// TestFindingWordsSayTheRunsUnit: a finding on a gRPC or WebSocket test
// states its throughputs and failures in calls or sessions, never req/s
// or requests; an HTTP test's read as before.
func TestFindingWordsSayTheRunsUnit(t *testing.T) {
	tests := []struct {
		name string
		in   func(*testing.T) Input
		kind string // "" for the healthy statement
		want []string
	}{
		{"http errors at load", asProtocol("", erroring), KindErrorsAtLoad, []string{"Errors start at 305 req/s offered (0:17)",
			"of requests failed", "before 0:17: 0.00% of 2,890 requests failed, at up to 290 req/s"}},
		{"grpc errors at load", asProtocol("grpc", erroring), KindErrorsAtLoad, []string{"Errors start at 305 calls/s offered (0:17)",
			"of calls failed", "before 0:17: 0.00% of 2,890 calls failed, at up to 290 calls/s"}},
		{"ws errors at load", asProtocol("ws", erroring), KindErrorsAtLoad, []string{"Errors start at 305 sessions/s offered (0:17)",
			"of sessions failed", "sessions failed at 305 sessions/s offered"}},
		{"http all failed", asProtocol("", notFound), KindAllFailed, []string{"Every request failed: 500 of 500", "500 of 500 requests failed with http_4xx"}},
		{"grpc all failed", asProtocol("grpc", notFound), KindAllFailed, []string{"Every call failed: 500 of 500", "500 of 500 calls failed with http_4xx"}},
		{"ws all failed", asProtocol("ws", notFound), KindAllFailed, []string{"Every session failed: 500 of 500", "500 of 500 sessions failed with http_4xx"}},
		{"http healthy", asProtocol("", healthyEverywhere), "", []string{"up to 680 req/s in its busiest second", "0% of 11,700 requests failed"}},
		{"grpc healthy", asProtocol("grpc", healthyEverywhere), "", []string{"up to 680 calls/s in its busiest second", "0% of 11,700 calls failed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			fs := Diagnose(in)
			text := healthyText(in, fs)
			if tc.kind != "" {
				text = ""
				for _, f := range fs {
					if f.Kind != tc.kind {
						continue
					}
					text += title(f) + "\n"
					for _, e := range f.Evidence {
						text += evidenceText(f, e) + "\n"
					}
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

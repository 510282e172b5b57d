package capacity

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// TestSearchWordsItsUnit: the words a search writes of what the target
// completed (a thin step's count, the error budget when every one failed,
// the first step that failed whole) are in the test's unit, gRPC calls or
// sessions, not requests. Before, a gRPC search's thin note read "80
// iterations/s held 80 requests".
func TestSearchWordsItsUnit(t *testing.T) {
	thin := queueServer{k: 2, service: 20 * time.Millisecond, slo: 50 * time.Millisecond, even: true}
	down := failingServer{share: func(float64) float64 { return 1 }}
	tests := []struct {
		name   string
		unit   units.Unit
		runner Runner
		text   func(Result) string
		want   string
	}{
		{"thin steps in calls", units.Calls, thin, func(r Result) string { return r.Thin }, "110 iterations/s held 43 calls"},
		{"thin steps in sessions", units.Sessions, thin, func(r Result) string { return r.Thin }, "held 43 sessions"},
		{"thin steps of an older capacity.json", units.Unit{}, thin, func(r Result) string { return r.Thin }, "held 43 requests"},
		{"a target that fails every call", units.Calls, down, func(r Result) string { return r.StopDetail }, "every call failed at the first step (40 iterations/s, 16 calls sent)"},
		{"its error budget", units.Sessions, down, func(r Result) string { return strings.Join(r.Steps[0].FailedThresholds, "; ") }, "every session failed, 16 sent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Search(context.Background(), Config{StartRate: 40, Factor: 2, Hold: 400 * time.Millisecond, Percentile: 95, Unit: tc.unit}, tc.runner)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.text(r); !strings.Contains(got, tc.want) {
				t.Errorf("%q does not say %q", got, tc.want)
			}
		})
	}
	r, err := Search(context.Background(), Config{StartRate: 40, Factor: 2, Hold: 400 * time.Millisecond, Percentile: 95, Unit: units.Calls,
		Latency: "grpc_req_duration"}, thin)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "calls", r) // report's tests render it
}

// TestCountsOfAnEarlierCapacityJSON: a capacity.json written before the
// unit was kept is read in its test's unit where the latency it judged
// names the protocol, so that estimate --from-run plans a gRPC search in
// calls/s.
func TestCountsOfAnEarlierCapacityJSON(t *testing.T) {
	tests := []struct {
		cfg  Config
		want units.Unit
	}{
		{Config{}, units.Requests},
		{Config{Latency: "http_req_duration"}, units.Requests},
		{Config{Latency: "grpc_req_duration"}, units.Calls},
		{Config{Latency: "ws_reply_time"}, units.Sessions},
		{Config{Latency: "grpc_req_duration", Unit: units.Requests}, units.Requests}, // a test of HTTP and gRPC steps
	}
	for _, tc := range tests {
		if got := tc.cfg.Counts(); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.cfg, got, tc.want)
		}
	}
}

package plan

import (
	"fmt"
	"strings"
	"testing"
)

// TestThresholdOnAFactNoStepRecords: a threshold on a session protocol's
// fact that no step records is an error at its key (ws_reply_time without
// until: on any ws: step validated, then failed the run with "no data",
// exit 99, once it was over); one that a step records parses.
func TestThresholdOnAFactNoStepRecords(t *testing.T) {
	const ws = "      - ws: ws://127.0.0.1:1/chat\n        send: [{text: hi}]\n        max_messages: 1\n"
	const wsUntil = "      - ws: ws://127.0.0.1:1/chat\n        send: [{text: hi}]\n        until: {body_contains: hi}\n"
	const sse = "      - sse: /feed\n        max_events: 1\n"
	tests := []struct {
		name, steps, threshold, want string // want: "" parses
	}{
		{"reply time without until:", ws, `ws_reply_time: ["p(95) < 1s"]`, "no ws: step has until:, which measures the reply time " +
			"(from the last message sent to the message until: matches), so it would fail with no data; add until: to a ws: step"},
		{"reply time with until: on one step", ws + wsUntil, `ws_reply_time: ["p(95) < 1s"]`, ""},
		{"a protocol without steps", ws, `sse_msgs_received: ["count > 0"]`, "no sse: step in the test records it, so it would fail with no data (its session steps are ws:)"},
		{"a misspelt protocol", ws + sse, `wss_time_to_first_msg: ["p(95) < 1s"]`, "no wss: step in the test records it, so it would fail with no data (its session steps are ws:, sse:)"},
		{"HTTP steps only", "      - get: /\n", `ws_sessions: ["count > 0"]`, "no ws: step in the test records it, so it would fail with no data (the test has no session steps)"},
		{"a fact the steps record", ws + sse, `sse_time_to_first_msg: ["p(95) < 1s"]`, ""},
		{"an HTTP metric", ws, `http_req_duration{scenario:s}: ["p(95) < 1s"]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + tt.steps + "thresholds:\n  " + tt.threshold + "\n"
			_, err := Parse("t.yaml", []byte(src), noEnv)
			key, _, _ := strings.Cut(tt.threshold, ":")
			want := fmt.Sprintf("t.yaml:%d:3: thresholds.%s: %s", strings.Count(src, "\n"), key, tt.want)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error: %v", err)
			case tt.want != "" && (err == nil || err.Error() != want):
				t.Errorf("error:\n%v\nwant:\n%s", err, want)
			}
		})
	}
}

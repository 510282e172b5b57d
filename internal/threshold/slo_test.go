package threshold

import (
	"strings"
	"testing"
	"time"
)

// TestSLOLatencyInTheTestsProtocol: a capacity search reads its steps'
// latency from the SLO's own latency metric. Before, only
// http_req_duration was one, so a gRPC or WebSocket SLO had no latency
// limit (the busy-host rules fell back to their defaults), no percentile
// (no thin-step note) and no line on the chart.
func TestSLOLatencyInTheTestsProtocol(t *testing.T) {
	tests := []struct {
		name        string
		defs        [][2]string
		wantMetric  string
		wantLimit   time.Duration
		wantP       float64
		wantChartAt time.Duration
	}{
		{"HTTP", [][2]string{{"http_req_duration", "p(95) < 300ms"}, {"http_req_failed", "rate < 1%"}}, "http_req_duration", 300 * time.Millisecond, 95, 300 * time.Millisecond},
		{"gRPC call duration", [][2]string{{"grpc_req_duration", "p(99) < 80ms"}, {"grpc_req_duration", "p(95) < 50ms"}}, "grpc_req_duration", 50 * time.Millisecond, 99, 50 * time.Millisecond},
		{"WebSocket reply time", [][2]string{{"ws_session_duration", "p(95) < 10ms"}, {"ws_reply_time", "p(95) < 100ms"}}, "ws_reply_time", 100 * time.Millisecond, 95, 100 * time.Millisecond},
		{"the tightest of two latencies", [][2]string{{"ws_time_to_first_msg", "p(95) < 200ms"}, {"ws_reply_time", "p(90) < 100ms"}}, "ws_reply_time", 100 * time.Millisecond, 95, 0},
		{"SSE first event", [][2]string{{"sse_time_to_first_msg", "max <= 1s"}}, "sse_time_to_first_msg", time.Second, 0, 0},
		{"a gap is the server's pace, not a latency", [][2]string{{"sse_msg_gap", "max < 5s"}, {"sse_msgs_received", "count > 0"}}, "", 0, 0, 0},
		{"a count of durations is no limit", [][2]string{{"http_req_duration", "count < 100"}}, "http_req_duration", 0, 0, 0},
		{"a lower bound is no limit", [][2]string{{"grpc_req_duration", "min > 1ms"}}, "grpc_req_duration", 0, 0, 0},
		{"a filtered p95 is no chart line", [][2]string{{`grpc_req_duration{name:"x"}`, "p(95) < 40ms"}}, "grpc_req_duration", 40 * time.Millisecond, 95, 0},
		{"none", [][2]string{{"http_reqs", "count > 1"}}, "", 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var defs []Threshold
			for _, d := range tc.defs {
				th, err := New(d[0], d[1])
				if err != nil {
					t.Fatal(err)
				}
				defs = append(defs, th)
			}
			if got := LatencyMetric(defs); got != tc.wantMetric {
				t.Errorf("LatencyMetric = %q, want %q", got, tc.wantMetric)
			}
			if got := LatencyLimit(defs); got != tc.wantLimit {
				t.Errorf("LatencyLimit = %v, want %v", got, tc.wantLimit)
			}
			if got := LatencyPercentile(defs); got != tc.wantP {
				t.Errorf("LatencyPercentile = %v, want %v", got, tc.wantP)
			}
			if got := SLOLatency(defs); got != tc.wantChartAt {
				t.Errorf("SLOLatency = %v, want %v", got, tc.wantChartAt)
			}
		})
	}
}

// TestK6NamesAreRefusedWithTheirLoadlensNames: a k6 script's thresholds
// on its protocol metrics that loadlens names otherwise, or does not
// measure, say what to write; before, "unknown metric" listed the built-ins.
func TestK6NamesAreRefusedWithTheirLoadlensNames(t *testing.T) {
	tests := []struct{ key, want string }{
		{"grpc_streams", `unknown metric "grpc_streams": k6's grpc_streams counts streams; loadlens counts every call, unary or streaming, as grpc_sessions`},
		{"grpc_streams_msgs_sent", "as grpc_msgs_sent"},
		{"grpc_streams_msgs_received", "as grpc_msgs_received"},
		{"ws_connecting", "is not measured apart: ws_time_to_first_msg"},
		{"ws_ping", "is not measured: ws_reply_time"},
		{"latency", `unknown metric "latency" (known: http_req_duration`},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			_, err := New(tc.key, "count > 0")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%q) = %v, want an error saying %q", tc.key, err, tc.want)
			}
			if _, _, _, _, err := ParseExpr(tc.key, "count > 0"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseExpr(%q) = %v, want an error saying %q", tc.key, err, tc.want)
			}
		})
	}
	for _, name := range []string{"grpc_req_duration", "grpc_sessions", "grpc_msgs_sent", "ws_sessions", "ws_msgs_sent", "ws_msgs_received", "ws_session_duration", "ws_reply_time"} {
		if _, err := New(name, "count >= 0"); err != nil {
			t.Errorf("New(%q): %v; it is a metric loadlens measures", name, err)
		}
	}
}

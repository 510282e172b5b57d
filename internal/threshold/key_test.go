package threshold

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseKey(t *testing.T) {
	tests := []struct {
		name       string
		key        string
		wantMetric string
		wantFilter []Tag
	}{
		{"bare metric", "http_req_duration", "http_req_duration", nil},
		{"surrounding spaces", "  http_reqs  ", "http_reqs", nil},
		{"double-quoted value", `http_req_duration{endpoint:"GET /x"}`, "http_req_duration", []Tag{{"endpoint", "GET /x"}}},
		{"single-quoted value", `http_req_duration{endpoint:'GET /x'}`, "http_req_duration", []Tag{{"endpoint", "GET /x"}}},
		{"bare value trimmed", `http_req_duration{ endpoint : GET /x }`, "http_req_duration", []Tag{{"endpoint", "GET /x"}}},
		{"several tags in order", `http_reqs{method:POST, scenario:"checkout"}`, "http_reqs", []Tag{{"method", "POST"}, {"scenario", "checkout"}}},
		{"quoted value with comma and brace", `checks{check:"a, b}"}`, "checks", []Tag{{"check", "a, b}"}}},
		{"escaped quote in value", `checks{check:"say \"hi\""}`, "checks", []Tag{{"check", `say "hi"`}}},
		{"kind filter", `http_req_failed{kind:http_5xx}`, "http_req_failed", []Tag{{"kind", "http_5xx"}}},
		{"scenario on iterations", `iterations{scenario:browse}`, "iterations", []Tag{{"scenario", "browse"}}},
		{"scenario on scheduler_lag", `scheduler_lag{scenario:'a'}`, "scheduler_lag", []Tag{{"scenario", "a"}}},
		{"space before brace", `vus {scenario:a}`, "vus", []Tag{{"scenario", "a"}}},
		{"checks with endpoint", `checks{endpoint:"GET /"}`, "checks", []Tag{{"endpoint", "GET /"}}},
		{"scenario on data_sent", `data_sent{scenario:a}`, "data_sent", []Tag{{"scenario", "a"}}},
		{"status on http_req_duration", `http_req_duration{status:200, name:/x}`, "http_req_duration", []Tag{{"status", "200"}, {"name", "/x"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			metric, filter, err := ParseKey(tc.key)
			if err != nil {
				t.Fatalf("ParseKey(%q): %v", tc.key, err)
			}
			if metric != tc.wantMetric || !slices.Equal(filter, tc.wantFilter) {
				t.Errorf("ParseKey = %q %v, want %q %v", metric, filter, tc.wantMetric, tc.wantFilter)
			}
		})
	}
}

func TestParseKeyErrors(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		wantOff int
		wantMsg string // the message, or its start when it ends in "..."
	}{
		{"empty", "", 0, "expected a metric name, found the end (known: http_req_duration, ..."},
		{"starts with brace", `{a:b}`, 0, "expected a metric name, found '{' (known: http_req_duration, ..."},
		{"unknown metric", " http_req_time", 1, `unknown metric "http_req_time" (known: ` + knownNames(nil) + ")"},
		{"text after metric", "http_reqs x", 10, "unexpected 'x' after metric http_reqs: expected { or the end of the key"},
		{"empty filter", "http_reqs{ }", 9, `empty filter {}: write the metric alone, or tags like scenario:"..."`},
		{"unterminated filter", `http_reqs{method:"GET"`, 9, "unterminated filter: expected } to close the { at offset 9"},
		{"unterminated after key", `http_reqs{method`, 9, "unterminated filter: expected } to close the { at offset 9"},
		{"unterminated bare value", `http_reqs{method:GET`, 9, "unterminated filter: expected } to close the { at offset 9"},
		{"unterminated after comma", `http_reqs{method:GET,`, 9, "unterminated filter: expected } to close the { at offset 9"},
		{"missing key", `http_reqs{:GET}`, 10, "expected a filter key (scenario, endpoint, name, method, group, status), found ':'"},
		{"trailing comma", `http_reqs{method:GET,}`, 21, "expected a filter key (scenario, endpoint, name, method, group, status), found '}'"},
		{"disallowed key", `http_reqs{proto:h2}`, 10, `filter key "proto" is not allowed for http_reqs (allowed: scenario, endpoint, name, method, group, status)`},
		{"status on a metric that does not keep it", `http_req_failed{status:500}`, 16, `filter key "status" is kept for http_req_duration and http_reqs only; for http_req_failed use http_req_failed{kind:http_4xx} (or http_5xx), or expect_status to make a status a success (allowed: scenario, endpoint, name, method, group, kind)`},
		{"status not a number", `http_reqs{status:ok}`, 17, `status "ok" is not an HTTP status: a number from 100 to 599, like status:200`},
		{"status out of range", `http_reqs{status:99}`, 17, `status "99" is not an HTTP status: a number from 100 to 599, like status:200`},
		{"status with expected_response", `http_req_duration{expected_response:true,status:200}`, 41, `filter keys expected_response and status do not go together: a status says what became of a request already`},
		{"expected_response false", `http_req_duration{expected_response:false}`, 36, `expected_response:false is not kept: only expected_response:true (the successful requests); judge failures with http_req_failed`},
		{"kind only on http_req_failed", `http_reqs{kind:ok}`, 10, `filter key "kind" is not allowed for http_reqs (allowed: scenario, endpoint, name, method, group, status)`},
		{"check only on checks", `vus{check:x}`, 4, `filter key "check" is not allowed for vus (allowed: scenario)`},
		{"repeated key", `http_reqs{method:GET,method:POST}`, 21, `filter key "method" is repeated`},
		{"missing colon", `http_reqs{method GET}`, 17, "expected : after filter key method, found 'G'"},
		{"empty quoted value", `http_reqs{method:""}`, 17, "empty value for filter key method"},
		{"empty bare value", `http_reqs{method: }`, 18, "empty value for filter key method"},
		{"unterminated quoted value", `http_reqs{method:"GET}`, 17, `unterminated quoted value: expected a closing "`},
		{"junk after quoted value", `http_reqs{method:"GET" x}`, 23, "unexpected 'x' after the value of method: expected , or }"},
		{"text after filter", `http_reqs{method:GET} x`, 22, "unexpected 'x' after the filter's closing }"},
		{"unknown kind", `http_req_failed{kind:5xx}`, 21, `unknown kind "5xx" (known: ok, http_4xx, http_5xx, timeout, conn_refused, conn_reset, dns, tls, other, interrupted, redirect, grpc_cancelled, grpc_unknown, grpc_invalid_argument, grpc_deadline_exceeded, grpc_not_found, grpc_already_exists, grpc_permission_denied, grpc_resource_exhausted, grpc_failed_precondition, grpc_aborted, grpc_out_of_range, grpc_unimplemented, grpc_internal, grpc_unavailable, grpc_data_loss, grpc_unauthenticated)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			metric, filter, err := ParseKey(tc.key)
			if err == nil {
				t.Fatalf("ParseKey(%q) = %q %v, want an error", tc.key, metric, filter)
			}
			assertError(t, err, tc.wantOff, tc.wantMsg)
		})
	}
}

// assertError checks that err is an *Error at off with message msg; a msg
// ending in "..." only has to start the message.
func assertError(t *testing.T, err error, off int, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T (%v) is not *Error", err, err)
	}
	ok := e.Msg == msg
	if prefix, cut := strings.CutSuffix(msg, "..."); cut {
		ok = strings.HasPrefix(e.Msg, prefix)
	}
	if !ok || e.Offset != off {
		t.Errorf("error at %d %q, want at %d %q", e.Offset, e.Msg, off, msg)
	}
	if e.Error() != e.Msg {
		t.Errorf("Error() = %q, want Msg", e.Error())
	}
}

func TestKindOfKnowsEveryListedMetric(t *testing.T) {
	names := strings.Split(knownMetrics, ", ")
	if len(names) != 17 {
		t.Fatalf("knownMetrics lists %d metrics, want 17", len(names))
	}
	tests := []struct {
		metric string
		want   MetricKind
	}{
		{"http_req_duration", Trend}, {"http_req_waiting", Trend}, {"http_req_connecting", Trend}, {"group_duration", Trend},
		{"http_req_tls_handshaking", Trend}, {"iteration_duration", Trend}, {"scheduler_lag", Trend},
		{"http_req_failed", RateKind}, {"checks", RateKind},
		{"http_reqs", Counter}, {"iterations", Counter}, {"dropped_iterations", Counter},
		{"iterations_not_sent", Counter}, {"data_sent", Counter}, {"data_received", Counter},
		{"vus", Gauge}, {"vus_max", Gauge},
	}
	for _, tc := range tests {
		t.Run(tc.metric, func(t *testing.T) {
			if got, ok := KindOf(tc.metric); !ok || got != tc.want {
				t.Errorf("KindOf = %v, %v, want %v", got, ok, tc.want)
			}
			if !slices.Contains(names, tc.metric) {
				t.Errorf("knownMetrics does not list %s", tc.metric)
			}
		})
	}
	if _, ok := KindOf("http_req_blocked"); ok {
		t.Error("KindOf knows http_req_blocked, which loadlens does not measure")
	}
}

// TestKindOfFacts: a session protocol's facts are metrics under its prefix,
// with no line per protocol; HTTP's prefix and unknown suffixes are not.
func TestKindOfFacts(t *testing.T) {
	tests := []struct {
		metric string
		want   MetricKind
		ok     bool
	}{
		{"sse_msgs_received", Counter, true}, {"sse_sessions", Counter, true}, {"ws_msgs_sent", Counter, true},
		{"sse_time_to_first_msg", Trend, true}, {"grpc_session_duration", Trend, true}, {"sse_msg_gap", Trend, true}, {"ws_reply_time", Trend, true},
		{"http_sessions", 0, false}, {"sse_msgs", 0, false}, {"SSE_sessions", 0, false}, {"_sessions", 0, false},
	}
	for _, tc := range tests {
		got, ok := KindOf(tc.metric)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("KindOf(%s) = %v, %v; want %v, %v", tc.metric, got, ok, tc.want, tc.ok)
		}
		if ok && !slices.Equal(filterKeys(tc.metric), []string{"scenario", "endpoint", "name", "group"}) {
			t.Errorf("%s filters on %v", tc.metric, filterKeys(tc.metric))
		}
	}
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"http_reqs", `http_req_duration{endpoint:"GET /x"}`, `checks{check:'a\'b',scenario:x}`, "vus{", `http_req_failed{kind:dns}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		metric, filter, err := ParseKey(key)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(key) {
				t.Fatalf("ParseKey(%q) error %v: not an *Error inside the key", key, err)
			}
			return
		}
		if _, ok := KindOf(metric); !ok {
			t.Fatalf("ParseKey(%q) returned unknown metric %q", key, metric)
		}
		for _, tag := range filter {
			if tag.Value == "" || !slices.Contains(filterKeys(metric), tag.Key) {
				t.Fatalf("ParseKey(%q) returned bad tag %+v", key, tag)
			}
		}
	})
}

package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestFailuresInTheProtocolsWords: when a session protocol's endpoints
// fail, the all-failed and errors findings name the protocol's own
// failure (a gRPC status, a refused WebSocket handshake) and its remedies,
// never HTTP's (base_url, expect_status); HTTP's own words stay.
func TestFailuresInTheProtocolsWords(t *testing.T) {
	cases := []struct {
		name          string
		in            func(t *testing.T) Input
		kind          string
		title, remedy string // substrings of the title and of some remedy
		never         []string
	}{
		{"gRPC UNAVAILABLE on every call", failedAll(sample.GRPCUnavailable, "grpc"), KindAllFailed,
			"60 of 60 gRPC status UNAVAILABLE from 0:00 — the server is not reachable or not serving", "grpcurl -plaintext host:port list",
			[]string{"base_url", "read the error samples"}},
		{"gRPC DEADLINE_EXCEEDED on every call", failedAll(sample.GRPCDeadlineExceeded, "grpc"), KindAllFailed,
			"gRPC status DEADLINE_EXCEEDED", "raise the step's timeout (the call's deadline)", []string{"request timeout"}},
		{"gRPC UNIMPLEMENTED on every call", failedAll(sample.GRPCUnimplemented, "grpc"), KindAllFailed,
			"gRPC status UNIMPLEMENTED", "package.Service/Method", nil},
		{"gRPC server refusing connections", failedAll(sample.ConnRefused, "grpc"), KindAllFailed,
			"connection refused from 0:00 — the server is not reachable: nothing accepts connections at the step's address",
			"its grpc:, ws: or sse: URL", []string{"base_url"}},
		{"WebSocket handshake refused", failedAll(sample.HTTP4xx, "ws"), KindAllFailed,
			"WebSocket handshake refused with a 4xx status from 0:00 — the server refused every WebSocket upgrade", "websocat",
			[]string{"expect_status", "answered with a 4xx status", "method"}},
		{"WebSocket handshake failing 5xx", failedAll(sample.HTTP5xx, "ws"), KindAllFailed,
			"WebSocket handshake failed with a 5xx status", "proxy_http_version 1.1", nil},
		{"SSE subscription refused", failedAll(sample.HTTP4xx, "sse"), KindAllFailed,
			"event stream refused with a 4xx status", "text/event-stream", []string{"expect_status"}},
		{"gRPC INVALID_ARGUMENT says calls", failedAll(sample.GRPCInvalidArgument, "grpc"), KindAllFailed,
			"Every call failed: 60 of 60 gRPC status INVALID_ARGUMENT from 0:00 — the server rejected every call's message", "grpcurl -d", []string{"request"}},
		{"gRPC NOT_FOUND says calls", failedAll(sample.GRPCNotFound, "grpc"), KindAllFailed,
			"the server found nothing for any call", "error samples", []string{"request"}},
		{"gRPC ALREADY_EXISTS says calls", failedAll(sample.GRPCAlreadyExists, "grpc"), KindAllFailed,
			"every call asked to create what already exists", "error samples", []string{"request"}},
		{"gRPC OUT_OF_RANGE says calls", failedAll(sample.GRPCOutOfRange, "grpc"), KindAllFailed,
			"every call asked beyond a valid range", "error samples", []string{"request"}},
		{"gRPC transport errors say calls", failedAll(sample.Other, "grpc"), KindAllFailed,
			"no call got through", "error samples", []string{"request"}},
		{"WebSocket transport errors say sessions", failedAll(sample.Other, "ws"), KindAllFailed,
			"Every session failed: 60 of 60 transport error or malformed message from 0:00 — no session got through", "error samples", []string{"request"}},
		{"gRPC calls cut off by the run's end", failedAll(sample.Interrupted, "grpc"), KindAllFailed,
			"no call ended before the run did: the server accepted the calls", "grpcurl", []string{"request", "curl -N", "sse:"}},
		{"HTTP keeps its words", failedAll(sample.ConnRefused, ""), KindAllFailed,
			"connection refused from 0:00 — the target is not reachable", "base_url", []string{"grpc:"}},
		{"HTTP and WebSocket 4xx together read as HTTP", failedMixed, KindAllFailed,
			"answered with a 4xx status", "expect_status", []string{"WebSocket"}},
		{"gRPC UNAVAILABLE at load", errorsLater(sample.GRPCUnavailable, "grpc"), KindErrorsAtLoad,
			"grpc_unavailable", "most failures are gRPC status UNAVAILABLE: call the server once by hand", nil},
		{"WebSocket handshakes refused at load", errorsLater(sample.HTTP4xx, "ws"), KindErrorsAtLoad,
			"http_4xx", "most failures are WebSocket handshake refused with a 4xx status: open one connection by hand",
			[]string{"expect_status"}},
		{"HTTP 4xx at load keeps expect_status", errorsLater(sample.HTTP4xx, ""), KindErrorsAtLoad,
			"http_4xx", "list them in expect_status", []string{"WebSocket"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, found := findKind(Diagnose(tc.in(t)), tc.kind)
			if !found {
				t.Fatalf("no %s finding", tc.kind)
			}
			text := title(f) + "\n" + strings.Join(f.Remedies, "\n")
			if !strings.Contains(title(f), tc.title) {
				t.Errorf("title %q lacks %q", title(f), tc.title)
			}
			if !strings.Contains(strings.Join(f.Remedies, "\n"), tc.remedy) {
				t.Errorf("remedies %q lack %q", f.Remedies, tc.remedy)
			}
			for _, bad := range tc.never {
				if strings.Contains(text, bad) {
					t.Errorf("the finding says %q:\n%s", bad, text)
				}
			}
		})
	}
}

// failedAll is 3 s of 20 calls a second to one endpoint of the protocol
// ("" for HTTP), every one failed with kind.
func failedAll(kind sample.Kind, protocol string) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(3, 20, 1, time.Millisecond)
		for i := range secs {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind = secs[i].reqs[0].n, kind
		}
		l := layout(modelArrivalRate, "CALL /x")
		l.Endpoints[0].Protocol = protocol
		return Input{Run: build(t, l, secs)}
	}
}

// failedMixed is an HTTP endpoint and a WebSocket one, both answered 4xx
// on every request.
func failedMixed(t *testing.T) Input {
	secs := steady(3, 20, 1, time.Millisecond)
	for i := range secs {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = secs[i].reqs[0].n, sample.HTTP4xx
		secs[i].reqs = append(secs[i].reqs, reqs{ep: 1, n: 10, fail: 10, kind: sample.HTTP4xx, dur: secs[i].reqs[0].dur})
	}
	l := layout(modelArrivalRate, "GET /x", "WS /chat")
	l.Endpoints[1].Protocol = "ws"
	return Input{Run: build(t, l, secs)}
}

// errorsLater is an open-model run at 100/s whose endpoint of the
// protocol fails 10 a second with kind from 0:06.
func errorsLater(kind sample.Kind, protocol string) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := openQueue(10, func(int) int { return 100 }, 190, 20*time.Millisecond)
		for i := 6; i < len(secs); i++ {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind = 10, kind
		}
		l := layout(modelArrivalRate, "CALL /x")
		l.Endpoints[0].Protocol = protocol
		return Input{Run: build(t, l, secs)}
	}
}

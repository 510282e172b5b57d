package grpc

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestExpectStatus: a status the step lists in expect_status is no
// failure, as HTTP's expect_status (the s35 trial: a test checking
// status: NOT_FOUND passed its checks and showed 50 % failed); an OK it
// does not list is one (other); a connection that could not be made is
// never expected, whatever the list.
func TestExpectStatus(t *testing.T) {
	addr := startInterop(t, nil)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := lis.Addr().String()
	lis.Close()
	const notFound = `{"response_status": {"code": 5, "message": "no such thing"}}`
	tests := []struct {
		name   string
		target string
		expect []int
		msg    string
		kind   sample.Kind
		errHas string
		code   int
	}{
		{"NOT_FOUND, expected", addr, []int{0, 5}, notFound, sample.OK, "", 5},
		{"OK, expected", addr, []int{0, 5}, `{}`, sample.OK, "", 0},
		{"NOT_FOUND, no expect_status", addr, nil, notFound, sample.GRPCNotFound, "NOT_FOUND: no such thing", 5},
		{"INTERNAL, not expected", addr, []int{0, 5}, `{"response_status": {"code": 13}}`, sample.GRPCInternal, "INTERNAL", 13},
		{"a status message is cleaned", addr, nil, `{"response_status": {"code": 14, "message": "upstream\n\u001b[2J  reset"}}`, sample.GRPCUnavailable,
			`UNAVAILABLE: upstream \x1b[2J reset`, 14},
		{"a long status message is bounded", addr, nil, `{"response_status": {"code": 14, "message": "` + strings.Repeat("pool exhausted ", 100) + `"}}`,
			sample.GRPCUnavailable, "pool exhausted pool exhausted…", 14},
		{"OK, not listed", addr, []int{5}, `{}`, sample.Other, "status OK, which expect_status does not list", 0},
		{"a refused connection, UNAVAILABLE listed", refused, []int{14}, `{}`, sample.ConnRefused, "", 14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := plan.Session{Timeout: 5 * time.Second, GRPC: &plan.GRPC{Method: "grpc.testing.TestService/UnaryCall",
				Messages: msg(tt.msg), ExpectStatus: tt.expect}}
			protos(s.GRPC)
			vu, err := call(t, tt.target, s)
			if err != nil {
				t.Fatal(err)
			}
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) || tt.kind == sample.OK && r.Err != "" {
				t.Errorf("kind %v (%q), want %v containing %q", r.Kind, r.Err, tt.kind, tt.errHas)
			}
			if len(r.Err) > len("UNAVAILABLE: ")+sample.MaxTargetMessage {
				t.Errorf("message of %d bytes", len(r.Err))
			}
			if f.Code != tt.code {
				t.Errorf("status %d, want %d", f.Code, tt.code)
			}
		})
	}
}

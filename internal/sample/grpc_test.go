package sample

import "testing"

func TestKindOfGRPC(t *testing.T) {
	tests := []struct {
		code int
		kind string
	}{
		{0, "ok"}, {1, "grpc_cancelled"}, {4, "grpc_deadline_exceeded"}, {14, "grpc_unavailable"},
		{16, "grpc_unauthenticated"}, {17, "other"}, {-1, "other"},
	}
	for _, tt := range tests {
		if got := KindOfGRPC(tt.code).String(); got != tt.kind {
			t.Errorf("KindOfGRPC(%d) = %s, want %s", tt.code, got, tt.kind)
		}
		if name := GRPCCodeName(tt.code); name != "" {
			if c, ok := GRPCCode(name); !ok || c != tt.code {
				t.Errorf("GRPCCode(%q) = %d, %v; want %d", name, c, ok, tt.code)
			}
		}
	}
	if _, ok := GRPCCode("not_found"); !ok {
		t.Error("GRPCCode is case-insensitive")
	}
}

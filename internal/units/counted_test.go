package units

import "testing"

// TestUnitOfProtocols: each protocol's samples are named once: HTTP
// requests, gRPC calls, any other session protocol's sessions; a test of
// several units counts operations; a unit saved by an earlier build (zero)
// reads as requests.
func TestUnitOfProtocols(t *testing.T) {
	tests := []struct {
		protocols []string
		want      Unit
		rate      string
	}{
		{nil, Requests, "80 req/s"},
		{[]string{""}, Requests, "80 req/s"},
		{[]string{"grpc", "grpc"}, Calls, "80 calls/s"},
		{[]string{"ws"}, Sessions, "80 sessions/s"},
		{[]string{"ws", "sse"}, Sessions, "80 sessions/s"},
		{[]string{"mqtt"}, Sessions, "80 sessions/s"},
		{[]string{"", "grpc"}, Operations, "80 ops/s"},
		{[]string{"grpc", "ws"}, Operations, "80 ops/s"},
		{[]string{"", "sse"}, Operations, "80 ops/s"},
	}
	for _, tc := range tests {
		u := ForProtocols(tc.protocols)
		if u != tc.want || u.Rate(80) != tc.rate {
			t.Errorf("%q: %+v (%s), want %+v (%s)", tc.protocols, u, u.Rate(80), tc.want, tc.rate)
		}
	}
	var old Unit
	if old.PerSecond() != "req/s" || old.Count(1) != "1 request" || Calls.Count(2000) != "2,000 calls" || Sessions.Quantity(1.5) != "1.5 sessions" {
		t.Errorf("zero %q %q, calls %q, sessions %q", old.PerSecond(), old.Count(1), Calls.Count(2000), Sessions.Quantity(1.5))
	}
}

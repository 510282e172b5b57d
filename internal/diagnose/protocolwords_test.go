package diagnose

import (
	"strings"
	"testing"
	"time"
)

// allFindingsText is every finding's title, evidence and remedies, a line each.
func allFindingsText(fs []Finding) string {
	var sb strings.Builder
	for _, f := range fs {
		sb.WriteString(title(f) + "\n")
		for _, e := range f.Evidence {
			sb.WriteString(evidenceText(f, e) + "\n")
		}
		for _, r := range f.Remedies {
			sb.WriteString(r + "\n")
		}
	}
	return sb.String()
}

// TestFindingsSayTheProtocolsWords renders the findings of a gRPC and a
// WebSocket run whose check failed on failed samples and whose errors came
// at load: their titles, evidence and remedies say calls or sessions, never
// requests (trial B: "Check failed because the request failed", "36
// requests of GRPC t.T/Unary failed", "fix what failed the requests",
// "cache so that fewer requests need it"), and a run of sessions alone
// states no p95 it does not have ("p95 0s"). HTTP keeps its words.
func TestFindingsSayTheProtocolsWords(t *testing.T) {
	tests := []struct {
		name  string
		in    func(*testing.T) Input
		want  []string
		never []string
	}{
		{"gRPC check on failed calls", asProtocol("grpc", timedOutCheck), []string{"Check failed because the call failed",
			"3 calls of GET /coupons/stats failed from 0:04 to 0:09", "fix what failed the calls"}, []string{"request"}},
		{"WebSocket check on failed sessions", asProtocol("ws", timedOutCheck), []string{"Check failed because the session failed",
			"fix what failed the sessions"}, []string{"request"}},
		{"HTTP check keeps requests", asProtocol("", timedOutCheck), []string{"Check failed because the request failed",
			"3 requests of GET /coupons/stats failed", "fix what failed the requests"}, []string{"calls", "sessions"}},
		{"gRPC errors at load", asProtocol("grpc", erroring), []string{"cache so that fewer calls need it"}, []string{"request"}},
		{"WebSocket errors at load", asProtocol("ws", erroring), []string{"cache so that fewer sessions need it"}, []string{"request"}},
		{"HTTP errors at load", asProtocol("", erroring), []string{"cache so that fewer requests need it"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := allFindingsText(Diagnose(tt.in(t)))
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, text)
				}
			}
			for _, n := range tt.never {
				if strings.Contains(strings.ToLower(text), n) {
					t.Errorf("says %q:\n%s", n, text)
				}
			}
		})
	}
}

// TestHealthySessionsStateNoP95: the healthy verdict of a run of sessions
// alone names no p95 (it has no latency; trial B's live dashboard read
// "p95 0s"), while a gRPC or HTTP run's still does.
func TestHealthySessionsStateNoP95(t *testing.T) {
	for _, tt := range []struct {
		protocol string
		session  bool
		p95      bool
	}{{"ws", true, false}, {"sse", true, false}, {"grpc", false, true}, {"", false, true}} {
		l := layout(modelArrivalRate, "/feed")
		l.Endpoints[0].Protocol, l.Endpoints[0].Session = tt.protocol, tt.session
		in := Input{Run: build(t, l, openQueue(30, rampOffered, 1000, 20*time.Millisecond))}
		text := healthyText(in, Diagnose(in))
		if text == "" {
			t.Fatalf("%q: no healthy verdict", tt.protocol)
		}
		if got := strings.Contains(text, "p95"); got != tt.p95 {
			t.Errorf("%q: says p95 = %v, want %v:\n%s", tt.protocol, got, tt.p95, text)
		}
	}
}

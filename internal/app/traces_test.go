package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/otlp"
	"github.com/loadlens/loadlens/internal/plan"
)

// TestTracesReceiverOffLoopbackPrintsItsToken: a receiver other hosts can
// reach takes only exports with a token, and the run says which: the one
// it made up, printed as the exporter's setting, or the test's, not printed.
func TestTracesReceiverOffLoopbackPrintsItsToken(t *testing.T) {
	for _, tc := range []struct {
		name, listen, token string
		want                string // "": no token line
	}{
		{"loopback", "127.0.0.1:0", "", ""},
		{"every interface, no token", "0.0.0.0:0", "", "OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20"},
		{"every interface, the test's token", "0.0.0.0:0", "given-0123456789abcdef", "observe.traces.token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			recv, err := listenTraces(&plan.ObserveTraces{Listen: tc.listen, Token: tc.token}, &out)
			if err != nil {
				t.Fatal(err)
			}
			defer recv.Close()
			text := out.String()
			switch {
			case tc.want == "" && (recv.Token() != "" || strings.Contains(text, "token")):
				t.Errorf("a loopback receiver asks for a token:\n%s", text)
			case tc.want != "" && !strings.Contains(text, tc.want):
				t.Errorf("output lacks %q:\n%s", tc.want, text)
			case tc.token == "" && tc.want != "" && !strings.Contains(text, otlp.HeadersEnv(recv.Token())):
				t.Errorf("the made-up token is not printed:\n%s", text)
			case tc.token != "" && (strings.Contains(text, tc.token) || recv.Token() != tc.token):
				t.Errorf("the test's token is printed, or not used (%q):\n%s", recv.Token(), text)
			}
		})
	}
}

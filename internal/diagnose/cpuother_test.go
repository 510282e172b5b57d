package diagnose

import (
	"strings"
	"testing"
)

// TestHostFilledUnderASteadyLoad: a host whose CPU jumped to full while the
// load held steady is said not to be the load's level, and the first
// remedy looks for what else ran; a host the load rose into is the load's.
func TestHostFilledUnderASteadyLoad(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     func(t *testing.T) Input
		steady bool
	}{
		{"steady 100 req/s, the DB host 46% → 90% at 0:15", slowFrom(nodeCPU(0.46, 0.9, 15), 15), true},
		{"a ramp into the knee, the DB host 46% → 95% at 0:15", withLoad(kneeRamp, nodeCPU(0.46, 0.95, 15)), false},
		{"steady, the DB host already 78% before", slowFrom(nodeCPU(0.78, 0.95, 15), 15), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := findKind(Diagnose(tc.in(t)), KindCPUSaturation)
			if !ok || f.Severity != Critical {
				t.Fatalf("cpu-saturation %v, severity %v; want a critical one", ok, f.Severity)
			}
			said := strings.Contains(title(f), "while the load held steady")
			first := len(f.Remedies) > 0 && f.Remedies[0] == strings.ReplaceAll(otherOnHost, "{request}", "request") // an HTTP run's words
			if said != tc.steady || first != tc.steady {
				t.Errorf("title %q, first remedy %q; want the steady load said: %v", title(f), f.Remedies[0], tc.steady)
			}
		})
	}
}

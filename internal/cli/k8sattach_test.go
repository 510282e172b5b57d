package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/k8s"
	"github.com/loadlens/loadlens/internal/live"
)

// TestAttachLine: `k8s attach` shows the line a local run's terminal
// shows (rate, p95, errors, in flight, VUs), from the figures the
// coordinator publishes, and the agents; before the first second, the
// phase and the agents ready.
func TestAttachLine(t *testing.T) {
	figures := k8s.Live{Elapsed: 42 * time.Second, Length: 5 * time.Minute, Rate: 2000, P95: 182 * time.Millisecond, ErrorRate: 0.006,
		InFlight: 12, VUs: 40, VUsMax: 64}
	local := live.Format(live.Status{Elapsed: 42 * time.Second, Total: 5 * time.Minute, RPS: 2000, P95: 182 * time.Millisecond, ErrRate: 0.006,
		InFlight: 12, VUs: 40, VUsMax: 64})
	for _, tc := range []struct {
		name string
		st   k8s.Status
		want string
	}{
		{"starting", k8s.Status{Phase: k8s.PhaseStarting, Agents: 20, Ready: 3}, "starting  agents 3/20 ready"},
		{"running, no second yet", k8s.Status{Phase: k8s.PhaseRunning, Agents: 20, Ready: 20}, "running  agents 20/20 ready"},
		{"running", k8s.Status{Phase: k8s.PhaseRunning, Agents: 20, Ready: 20, Live: figures}, local + " · agents 20/20"},
		{"an agent lost", k8s.Status{Phase: k8s.PhaseRunning, Agents: 20, Ready: 19, Lost: 1, Live: figures}, local + " · agents 19/20, 1 lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := attachText(tc.st); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	if !strings.Contains(local, "p95 182ms") || !strings.Contains(local, "2,000 req/s") {
		t.Errorf("the local line %q lacks its rate or p95", local)
	}
}

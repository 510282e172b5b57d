package dist

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestAgentsStopWithoutTheirCoordinator starts a long load through a bare
// coordinator connection, then the coordinator dies (its connection closes)
// or goes silent (no beats): the agent stops the load within a few seconds.
func TestAgentsStopWithoutTheirCoordinator(t *testing.T) {
	for _, how := range []string{"dies", "goes silent"} {
		t.Run(how, func(t *testing.T) {
			srv, count := countingServer(t, nil)
			path := writeTest(t, fmt.Sprintf("name: long\nbase_url: %s\nscenarios:\n  s:\n    rate: 20\n    duration: 10m\n    flow:\n      - get: /z\n", srv.URL), nil)
			agents := startAgents(t, 1, token, func(c *AgentConfig) { c.Silence = time.Second })
			p, j, err := loadTest(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			r, err := dialAgent(ctx, &Config{Token: token}, "agent 1", agents[0].addr)
			if err != nil {
				t.Fatal(err)
			}
			j.Segment = plan.Whole.String()
			if err := r.give(ctx, j, p); err != nil {
				t.Fatal(err)
			}
			if err := r.c.send(kindStart, start{AtNanos: time.Now().UnixNano()}); err != nil {
				t.Fatal(err)
			}
			eventually(t, 10*time.Second, "the load reached the server", func() bool { return count("/z") > 0 })
			if how == "dies" {
				r.nc.Close()
			} // else: it sends nothing more, and keeps the connection open
			defer r.nc.Close()
			cut := time.Now()
			eventually(t, 10*time.Second, "the agent stopped the load", func() bool {
				return strings.Contains(agents[0].out.String(), "load stopped")
			})
			if took := time.Since(cut); took > 8*time.Second {
				t.Errorf("the agent took %s to stop", took)
			}
			after := count("/z")
			// one more request may have been on its way; a running schedule would send 20 a second
			eventually(t, 5*time.Second, "the requests stopped", func() bool { return count("/z") <= after+1 })
			if !strings.Contains(agents[0].out.String(), "lost the coordinator") {
				t.Errorf("the agent did not say it lost its coordinator:\n%s", agents[0].out.String())
			}
		})
	}
}

package dist

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"

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
			p, j, err := loadTest(path, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			r, err := dialAgent(ctx, &Config{Token: token, Run: app.RunConfig{Version: "test"}}, "agent 1", agents[0].addr)
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

// TestAbortOnFailStopsEveryAgent fails a threshold with abort_on_fail on the
// merged data: the coordinator stops every agent and the run is aborted.
func TestAbortOnFailStopsEveryAgent(t *testing.T) {
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf(`
name: abort
base_url: %s
scenarios:
  s:
    rate: 20
    duration: 10m
    flow:
      - get: /a
        check:
          - status: 201
thresholds:
  checks:
    - threshold: "rate > 0.99"
      abort_on_fail: true
`, srv.URL), nil)
	agents := startAgents(t, 2, token, nil)
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(agents), Token: token})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	if res.Status != app.StatusAborted || res.ExitCode == 0 {
		t.Fatalf("status %s exit %d, want aborted and failing\n%s", res.Status, res.ExitCode, out)
	}
	for i, a := range agents {
		if !strings.Contains(a.out.String(), "the coordinator stops the load") {
			t.Errorf("agent %d was not stopped:\n%s", i+1, a.out.String())
		}
	}
	after := count("/a")
	if after > 20*60 {
		t.Errorf("the target got %d requests: the 10-minute load was not stopped", after)
	}
}

// TestInterruptStopsEveryAgentAndKeepsTheSeconds is Ctrl-C on the
// coordinator: every agent stops, and the seconds measured are written.
func TestInterruptStopsEveryAgentAndKeepsTheSeconds(t *testing.T) {
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: int\nbase_url: %s\nscenarios:\n  s:\n    rate: 20\n    duration: 10m\n    flow:\n      - get: /i\n", srv.URL), nil)
	agents := startAgents(t, 2, token, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{TestFile: path, Agents: addrsOf(agents), Token: token}
	out := &syncBuffer{}
	cfg.Run.Out, cfg.Run.ResultsDir = out, t.TempDir() // not quiet: the live line reads the agents' figures
	cfg.Run.Version = "test"
	cfg.tap = func(agent string, snap []byte) {
		var s metrics.Snapshot
		if s.UnmarshalBinary(snap) == nil && s.Second == 1 {
			cancel()
		}
	}
	res, err := Coordinate(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != app.StatusInterrupted {
		t.Fatalf("status %s, want interrupted", res.Status)
	}
	if !strings.Contains(out.String(), "in flight") {
		t.Errorf("no live line:\n%s", out.String())
	}
	for i, a := range agents {
		eventually(t, 10*time.Second, fmt.Sprintf("agent %d stopped", i+1), func() bool { return strings.Contains(a.out.String(), "load stopped") })
	}
	r := readRun(t, res.Dir)
	if got := totalRequests(r); got < 40 || got > count("/i") {
		t.Errorf("run.db has %d requests, the server counted %d: want at least the two seconds measured", got, count("/i"))
	}
}

// TestOnceAgentExitsAfterItsRun is a Kubernetes Job's pod: the agent ends
// after one run, so the Job completes.
func TestOnceAgentExitsAfterItsRun(t *testing.T) {
	srv, _ := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: once\nbase_url: %s\nscenarios:\n  s:\n    iterations: 2\n    flow:\n      - get: /o\n", srv.URL), nil)
	agents := startAgents(t, 1, token, func(c *AgentConfig) { c.Once = true })
	if _, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(agents), Token: token}); err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	select {
	case <-agents[0].done:
		if agents[0].err != nil {
			t.Fatalf("Serve: %v", agents[0].err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the --once agent still serves 20s after its run")
	}
}

package dist

import (
	"fmt"
	"math"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

func TestAgentLostMidRunIsReportedAndTheRunGoesOn(t *testing.T) {
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf(`
name: lost
base_url: %s
scenarios:
  open:
    rate: 40
    duration: 4s
    flow:
      - get: /l
`, srv.URL), nil)
	// Cut agent 2's connection once it has sent a second, as its kernel does when the process dies.
	agents, res, out, err := runEndingAgent2(t, path, func(a *testAgent) { a.ln.cut() })
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	if res.Status != app.StatusCompleted {
		t.Errorf("status %s, want completed: the run goes on with the other agents", res.Status)
	}
	for _, want := range []string{"agent 2 (" + agents[1].addr + ") was lost at 0:02", "planned iterations of its segment were not offered"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	r := readRun(t, res.Dir)
	// agent 1 ran its half (80), agent 2 its seconds 0 and 1 (40 at most, some more may reach the server before it stops).
	got := totalRequests(r)
	if got < 80+30 || got >= 160 || got > count("/l") {
		t.Errorf("run.db has %d requests (the server counted %d): want agent 1's 80 and agent 2's first two seconds kept", got, count("/l"))
	}
	eventually(t, 10*time.Second, "agent 2 stopped its load", func() bool { return strings.Contains(agents[1].out.String(), "lost the coordinator") })
}

func TestLateSecondIsMarkedMissingNotMergedAsZero(t *testing.T) {
	srv, _ := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf(`
name: late
base_url: %s
scenarios:
  open:
    rate: 20
    duration: 3s
    flow:
      - get: /x
`, srv.URL), nil)
	p, ln := parseAndListen(t, path)
	release := make(chan struct{}) // closed once the coordinator has given up on second 1
	go fakeServe(t, ln, p.Layout, release)
	cfg := Config{TestFile: path, Agents: []string{ln.Addr().String()}, Token: token, SecondWait: 200 * time.Millisecond}
	var once bool
	cfg.missed = func(agent string, sec int) {
		if sec == 1 && !once {
			once = true
			close(release)
		}
	}
	res, out, err := coordinateTest(t, cfg)
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "no data for 0:01: it did not arrive within the wait, so it is left out, not counted as zero") {
		t.Errorf("the summary does not say second 1 went missing:\n%s", out)
	}
	r := readRun(t, res.Dir)
	if got := totalRequests(r); got != 7+9 {
		t.Errorf("run.db has %d requests, want 16: seconds 0 and 2 (7 and 9), without the late second 1", got)
	}
}

// fakeServe answers one coordinator: seconds 0 and 2 on time, second 1
// only after release, then the end.
func fakeServe(t *testing.T, ln net.Listener, layout sample.Layout, release chan struct{}) {
	nc, err := ln.Accept()
	if err != nil {
		return
	}
	defer nc.Close()
	c := fakeHandshake(nc, layout)
	if c == nil {
		return
	}
	second := func(sec int, reqs int64) {
		s := metrics.NewSnapshot(sec, layout)
		s.Endpoints[0].Requests = reqs
		s.Endpoints[0].Duration = metrics.NewHist()
		for range reqs {
			s.Endpoints[0].Duration.Record(time.Millisecond)
		}
		b, _ := s.MarshalBinary()
		c.send(kindSecond, secondFrame(secondHead{sec: sec, cpu: 0.1, stall: math.NaN(), wait: math.NaN()}, b))
	}
	second(0, 7)
	select {
	case <-release:
	case <-time.After(30 * time.Second):
	}
	// too late: the coordinator gave up on it, and must not merge it now
	second(1, 5)
	second(2, 9)
	c.send(kindDone, done{Seconds: 3})
}

// fakeHandshake answers a coordinator's hello, pings, job and start as an
// agent would, then drains its beats; nil when the connection broke.
func fakeHandshake(nc net.Conn, layout sample.Layout) *conn {
	c := newConn(nc)
	var at time.Time
	for at.IsZero() {
		f, err := c.read()
		if err != nil {
			return nil
		}
		switch f.kind {
		case kindHello:
			c.send(kindWelcome, welcome{Host: "fake", CPUs: 1, Build: Build{Version: "test"}})
		case kindPing:
			c.send(kindPong, pong{AgentNanos: time.Now().UnixNano()})
		case kindJob:
			c.send(kindReady, ready{Endpoints: len(layout.Endpoints), Scenarios: len(layout.Scenarios), Checks: len(layout.Checks)})
		case kindStart:
			at = time.Now()
		}
	}
	go func() { // drain beats
		for {
			if _, err := c.read(); err != nil {
				return
			}
		}
	}()
	return c
}

func TestAgentStoppingItselfMidRunIsLostNotCompleted(t *testing.T) {
	srv, _ := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf(`
name: stopped
base_url: %s
scenarios:
  open:
    rate: 40
    duration: 4s
    flow:
      - get: /s
`, srv.URL), nil)
	// Stop agent 2 itself once it has sent a second, as SIGTERM does: it
	// ends its load cleanly and says so, which is no reason to call it done.
	agents, res, out, err := runEndingAgent2(t, path, func(a *testAgent) { a.stop() })
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	text := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"agent 2 (" + agents[1].addr + ") was lost at 0:0", "it stopped itself (agent stopped: ", "planned iterations of its segment were not offered"} {
		if !strings.Contains(text, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(text, "agent 1 ("+agents[0].addr+") was lost") {
		t.Errorf("agent 1, which ran its course, is reported lost:\n%s", out)
	}
	if res.Status != app.StatusCompleted {
		t.Errorf("status %s, want completed: the run goes on with the other agents", res.Status)
	}
	eventually(t, 10*time.Second, "agent 2 to say why it stopped", func() bool {
		return strings.Contains(agents[1].out.String(), "agent stopped: context canceled: stopping the load")
	})
}

// runEndingAgent2 runs the test at path over two agents and ends agent 2
// with end once it has sent its second 1.
func runEndingAgent2(t *testing.T, path string, end func(*testAgent)) ([]*testAgent, app.RunResult, string, error) {
	t.Helper()
	agents := startAgents(t, 2, token, nil)
	var once sync.Once
	cfg := Config{TestFile: path, Agents: addrsOf(agents), Token: token}
	cfg.tap = func(agent string, snap []byte) {
		var s metrics.Snapshot
		if agent == "agent 2" && s.UnmarshalBinary(snap) == nil && s.Second == 1 {
			once.Do(func() { go end(agents[1]) })
		}
	}
	res, out, err := coordinateTest(t, cfg)
	return agents, res, out, err
}

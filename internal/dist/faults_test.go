package dist

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
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
	if res.Status != app.StatusPartial || res.ExitCode != app.ExitRunFailed {
		t.Errorf("status %s, exit %d; want partial, %d: the run goes on with the other agents, but its planned load was not delivered", res.Status, res.ExitCode, app.ExitRunFailed)
	}
	for _, want := range []string{"agent 2 (" + agents[1].addr + ") was lost at 0:02", "the run goes on with 1 other agent", "planned iterations of its segment from then on are not in these figures",
		"PARTIAL LOAD: an agent was lost, so the planned load was not all delivered"} {
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
	rows := agentRows(t, res.Dir)
	if sum := rows[0].Requests + rows[1].Requests; sum != got {
		t.Errorf("the agents' requests add up to %d, the run's to %d", sum, got)
	}
	// What it sent after its last second received is at most its plan for the time until it was found lost
	// (one more arrival may be on its way as it finds its connection gone).
	if unseen := count("/l") - got; unseen > rows[1].Unreported+1 {
		t.Errorf("the server counted %d requests the run did not, more than the %d planned before agent 2 was found lost", unseen, rows[1].Unreported)
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
			c.send(kindWelcome, welcome{Host: "fake", CPUs: 1, Build: ThisBuild("test")})
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
	srv, count := countingServer(t, nil)
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
	if res.Status != app.StatusPartial || res.ExitCode != app.ExitRunFailed {
		t.Errorf("status %s, exit %d; want partial, %d", res.Status, res.ExitCode, app.ExitRunFailed)
	}
	// It sent every second it ran before it said why it stopped: the run holds every request the server got.
	rows, got := agentRows(t, res.Dir), totalRequests(readRun(t, res.Dir))
	if sum := rows[0].Requests + rows[1].Requests; sum != got || got != count("/s") {
		t.Errorf("the agents' requests add up to %d, the run's to %d, the server counted %d: all three must agree", sum, got, count("/s"))
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

// agentRows reads the per-agent table of the run in dir back from its summary.json.
func agentRows(t *testing.T, dir string) []report.Agent {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Agents []struct {
				Requests   int64 `json:"requests"`
				Unreported int64 `json:"lost_unreported_planned_iterations"`
			} `json:"agents"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var out []report.Agent
	for _, a := range s.Loadlens.Agents {
		out = append(out, report.Agent{Requests: a.Requests, Unreported: a.Unreported})
	}
	if len(out) != 2 {
		t.Fatalf("summary.json lists %d agents", len(out))
	}
	return out
}

// TestSilentAgentDoesNotStretchTheRun: an agent falls silent after two
// seconds and is found lost 5 s later, after the other agent ended. The
// run lasts as long as its load did, not the wait, and so its figures
// agree with each other: its rate is the agents' rates added up, and no
// empty second stands for the wait.
func TestSilentAgentDoesNotStretchTheRun(t *testing.T) {
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: silent\nbase_url: %s\nscenarios:\n  open:\n    rate: 40\n    duration: 3s\n    flow:\n      - get: /q\n", srv.URL), nil)
	real := startAgents(t, 1, token, nil)
	p, ln := parseAndListen(t, path)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() { // agent 2: its first two seconds, 20 requests each, then silence on an open connection
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		c := fakeHandshake(nc, p.Layout)
		for sec := range 2 {
			s := metrics.NewSnapshot(sec, p.Layout)
			s.Endpoints[0].Requests, s.Endpoints[0].Duration = 20, metrics.NewHist()
			s.Scenarios[0].Iterations = 20
			for range 20 {
				s.Endpoints[0].Duration.Record(time.Millisecond)
			}
			b, _ := s.MarshalBinary()
			c.send(kindSecond, secondFrame(secondHead{sec: sec, cpu: 0.1, stall: math.NaN(), wait: math.NaN()}, b))
		}
		<-stop
	}()
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: []string{real[0].addr, ln.Addr().String()}, Token: token})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	r := readRun(t, res.Dir)
	rows := agentRows(t, res.Dir)
	got := totalRequests(r)
	if got != count("/q")+40 || rows[0].Requests+rows[1].Requests != got {
		t.Fatalf("the run counts %d requests, the agents %d + %d, the server %d from agent 1 (+40 from agent 2)", got, rows[0].Requests, rows[1].Requests, count("/q"))
	}
	if el := r.Elapsed(); el < 3*time.Second || el > 4*time.Second {
		t.Errorf("the run lasted %s: want the load's 3s and its end, not the %s it took to find agent 2 gone", el, DefaultSilence)
	}
	if n := len(r.Series); n > 5 {
		t.Errorf("run.db holds %d seconds of a 3-second load: the wait for the silent agent is in it", n)
	}
	var achieved float64
	for _, a := range agentsSummary(t, res.Dir) {
		achieved += a
	}
	if rate := float64(got) / r.Elapsed().Seconds(); math.Abs(rate-achieved) > 0.1*achieved {
		t.Errorf("the run's %.1f requests/s, the agents' achieved rates add up to %.1f/s", rate, achieved)
	}
}

// agentsSummary is each agent's achieved rate in summary.json.
func agentsSummary(t *testing.T, dir string) []float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Agents []struct {
				Achieved float64 `json:"achieved_rate"`
			} `json:"agents"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, a := range s.Loadlens.Agents {
		out = append(out, a.Achieved)
	}
	return out
}

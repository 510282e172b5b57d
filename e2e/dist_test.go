package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// countingTarget counts the requests it receives, each delayed by delay.
func countingTarget(t *testing.T, delay time.Duration) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		time.Sleep(delay) // the target's own latency
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// summaryOf reads a run directory's summary.json.
func summaryOf(t *testing.T, runDir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// summaryMetric returns summary.json's metrics[name][field].
func summaryMetric(s map[string]any, name, field string) float64 {
	m, _ := s["metrics"].(map[string]any)
	f, _ := m[name].(map[string]any)
	v, _ := f[field].(float64)
	return v
}

// agentProcesses lists the running processes of this test binary's agents.
func agentProcesses() []string {
	var out []string
	cmdlines, _ := filepath.Glob("/proc/*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if len(args) > 1 && args[0] == binary && args[1] == "agent" {
			out = append(out, f)
		}
	}
	return out
}

func TestLocalAgentsAgreeWithOneProcess(t *testing.T) {
	url, count := countingTarget(t, 3*time.Millisecond)
	dir := t.TempDir()
	test := fmt.Sprintf("name: local-agents\nbase_url: %s\nscenarios:\n  open:\n    start_rate: 30\n    stages:\n      - {duration: 3s, target: 120}\n    flow:\n      - get: /a\n", url)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	const planned = 225 // (30 + 120) / 2 · 3 s

	r := loadlens(t, dir, "run", "t.yaml", "--local-agents", "4", "--results", "four", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	four := summaryOf(t, onlyRunDir(t, filepath.Join(dir, "four")))
	byTarget := count.Load()
	if got := summaryMetric(four, "http_reqs", "count"); got != planned || byTarget != planned {
		t.Fatalf("4 local agents: summary.json counts %v requests, the target %d; the schedule plans %d", got, byTarget, planned)
	}
	if strings.Count(r.stdout, "clock offset") != 4 || !strings.Contains(r.stdout, "AGENTS") {
		t.Errorf("the output lacks the agents' offsets or table:\n%s", r.stdout)
	}
	if procs := agentProcesses(); len(procs) != 0 {
		t.Errorf("local agents left running after the run: %v", procs)
	}

	r = loadlens(t, dir, "run", "t.yaml", "--results", "one", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	one := summaryOf(t, onlyRunDir(t, filepath.Join(dir, "one")))
	if got := summaryMetric(one, "http_reqs", "count"); got != planned || count.Load()-byTarget != planned {
		t.Fatalf("one process: summary.json counts %v requests, the target %d", got, count.Load()-byTarget)
	}
	// Two runs never measure the same latencies; the target's same delay
	// shows as the same median within a shared machine's noise.
	d, s := summaryMetric(four, "http_req_duration", "med"), summaryMetric(one, "http_req_duration", "med")
	if d < 3 || s < 3 || d-s > 10 || s-d > 10 {
		t.Errorf("median of 4 agents %.2fms, of one process %.2fms: want both at least the target's 3ms and within 10ms", d, s)
	}
}

// startAgentProcess starts `loadlens agent` on a free loopback port and
// returns its address, process and output.
func startAgentProcess(t *testing.T, dir, tokenFile string, env ...string) (string, *exec.Cmd, *testkit.Buffer) {
	t.Helper()
	cmd := exec.Command(binary, "agent", "--token-file", tokenFile)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"LOADLENS_AGENT_LISTEN=127.0.0.1:0"}, env...)...)
	out := &testkit.Buffer{}
	addr, err := testkit.StartAgent(cmd, out)
	if cmd.Process != nil {
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
	if err != nil {
		t.Fatal(err)
	}
	return addr, cmd, out
}

// An agent that ends mid-run is lost from its last second, whether killed
// or stopped with SIGTERM (a Kubernetes eviction), which it survives long
// enough to tell the coordinator why.
func TestKillingAnAgentMidRun(t *testing.T) {
	for _, tc := range []struct {
		sig syscall.Signal
		why string // what the report says of it; "" for anything
	}{
		{sig: syscall.SIGKILL},
		{sig: syscall.SIGTERM, why: "it stopped itself (agent stopped: terminated)"},
	} {
		t.Run(tc.sig.String(), func(t *testing.T) { killAnAgentMidRun(t, tc.sig, tc.why) })
	}
}

func killAnAgentMidRun(t *testing.T, sig syscall.Signal, why string) {
	url, count := countingTarget(t, 0)
	dir := t.TempDir()
	test := fmt.Sprintf("name: kill\nbase_url: %s\nscenarios:\n  open:\n    rate: 40\n    duration: 6s\n    flow:\n      - get: /k\n", url)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "token"), []byte("e2e-token-0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a1, _, _ := startAgentProcess(t, dir, "token", "LOADLENS_AGENT_INDEX=0")
	a2, victim, victimOut := startAgentProcess(t, dir, "token", "LOADLENS_AGENT_INDEX=1")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	coord := exec.CommandContext(ctx, binary, "run", "t.yaml", "--agents", a1+","+a2, "--token-file", "token", "--results", "results", "--quiet")
	coord.Dir = dir
	var out, errb testkit.Buffer
	coord.Stdout, coord.Stderr = &out, &errb
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "agent 2 to start its load", func() bool { return strings.Contains(victimOut.String(), "load started") })
	waitFor(t, 30*time.Second, "two seconds of load", func() bool { return count.Load() >= 80 })
	if err := victim.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	// The run goes on with agent 1, and says the planned load was not delivered: it fails the gate.
	if err := coord.Wait(); coord.ProcessState == nil || coord.ProcessState.ExitCode() != 1 {
		t.Fatalf("coordinator: %v, want exit 1\n%s\n%s", err, out.String(), errb.String())
	}
	s := summaryOf(t, onlyRunDir(t, filepath.Join(dir, "results")))
	own, _ := s["loadlens"].(map[string]any)
	if own["status"] != "partial" || own["verdict"] != "PARTIAL LOAD" {
		t.Errorf("status %v, verdict %v; want partial, PARTIAL LOAD", own["status"], own["verdict"])
	}
	agents, _ := own["agents"].([]any)
	if len(agents) != 2 {
		t.Fatalf("summary.json lists %d agents", len(agents))
	}
	lost, _ := agents[1].(map[string]any)
	at, ok := lost["lost_at_second"].(float64)
	if !ok || at < 1 || at > 6 {
		t.Fatalf("agent 2's lost_at_second = %v, want the second it was killed", lost["lost_at_second"])
	}
	if p, _ := lost["lost_planned_iterations"].(float64); p <= 0 {
		t.Errorf("lost_planned_iterations = %v, want the load it would have offered after", lost["lost_planned_iterations"])
	}
	if w, _ := lost["lost_why"].(string); !strings.Contains(w, why) {
		t.Errorf("lost_why = %q, want %q", w, why)
	}
	if kept, _ := agents[0].(map[string]any); kept["lost_at_second"] != nil {
		t.Errorf("agent 1 is reported lost too: %v", kept)
	}
	text := strings.Join(strings.Fields(out.String()), " ")
	if !strings.Contains(text, "index 1, ") {
		t.Errorf("the coordinator does not show agent 2's LOADLENS_AGENT_INDEX:\n%s", out.String())
	}
	if !strings.Contains(text, fmt.Sprintf("agent 2 (%s) was lost at", a2)) {
		t.Errorf("the summary does not name the lost agent:\n%s", out.String())
	}
	reqs := summaryMetric(s, "http_reqs", "count")
	if reqs < 120 || reqs > float64(count.Load()) {
		t.Errorf("summary.json counts %v requests, the target %d: want agent 1's 120 and agent 2's seconds before it died", reqs, count.Load())
	}
	// The agents' requests are the run's. Killed, agent 2 could not report what it sent after its last
	// second: at most its plan up to when it was found lost (one more may have been on its way). Stopped,
	// it reported everything, and the target's count is the run's.
	kept, _ := agents[0].(map[string]any)
	if sum := kept["requests"].(float64) + lost["requests"].(float64); sum != reqs {
		t.Errorf("the agents' requests add up to %v, the run's to %v", sum, reqs)
	}
	unreported, _ := lost["lost_unreported_planned_iterations"].(float64)
	if unseen := float64(count.Load()) - reqs; unseen > unreported+1 || sig == syscall.SIGTERM && unseen != 0 {
		t.Errorf("the target counted %v requests the run did not; agent 2 planned %v before it was found lost", unseen, unreported)
	}
}

func TestAgentRefusesAWrongToken(t *testing.T) {
	url, count := countingTarget(t, 0)
	dir := t.TempDir()
	test := fmt.Sprintf("name: tok\nbase_url: %s\nscenarios:\n  s:\n    iterations: 2\n    flow:\n      - get: /t\n", url)
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644)
	os.WriteFile(filepath.Join(dir, "token"), []byte("right-token-0123456789"), 0o600)
	os.WriteFile(filepath.Join(dir, "wrong"), []byte("wrong-token-0123456789"), 0o600)
	addr, _, agentOut := startAgentProcess(t, dir, "token")
	r := loadlens(t, dir, "run", "t.yaml", "--agents", addr, "--token-file", "wrong", "--results", "results")
	if r.code == 0 || !strings.Contains(r.stderr, "wrong token") {
		t.Fatalf("exit %d, stderr %q: want a failure saying wrong token", r.code, r.stderr)
	}
	if count.Load() != 0 {
		t.Fatalf("the refused test sent %d requests", count.Load())
	}
	waitFor(t, 10*time.Second, "the agent to say it refused", func() bool { return strings.Contains(agentOut.String(), "refused") })
	r = loadlens(t, dir, "run", "t.yaml", "--agents", addr, "--results", "results")
	if r.code != 2 || !strings.Contains(r.stderr, "--token-file") {
		t.Fatalf("without --token-file: exit %d, stderr %q; want 2 naming --token-file", r.code, r.stderr)
	}
	r = loadlens(t, dir, "agent", "--listen", "127.0.0.1:0")
	if r.code != 2 || !strings.Contains(r.stderr, "token") {
		t.Fatalf("an agent without a token: exit %d, stderr %q; want 2", r.code, r.stderr)
	}
}

func TestInterruptingLocalAgentsKeepsTheRunAndLeavesNoAgent(t *testing.T) {
	url, count := countingTarget(t, 0)
	dir := t.TempDir()
	test := fmt.Sprintf("name: int\nbase_url: %s\nscenarios:\n  open:\n    rate: 20\n    duration: 10m\n    flow:\n      - get: /i\n", url)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	coord := exec.CommandContext(ctx, binary, "run", "t.yaml", "--local-agents", "2", "--results", "results", "--quiet")
	coord.Dir = dir
	var out, errb testkit.Buffer
	coord.Stdout, coord.Stderr = &out, &errb
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "two seconds of load", func() bool { return count.Load() >= 40 })
	if err := coord.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	coord.Wait()
	s := summaryOf(t, onlyRunDir(t, filepath.Join(dir, "results")))
	own, _ := s["loadlens"].(map[string]any)
	if own["status"] != "interrupted" {
		t.Errorf("status %v, want interrupted\n%s\n%s", own["status"], out.String(), errb.String())
	}
	if got := summaryMetric(s, "http_reqs", "count"); got < 20 || got > float64(count.Load()) {
		t.Errorf("summary.json counts %v requests, the target %d", got, count.Load())
	}
	// Each agent offered 10/s of a 10-minute plan: cut short, its achieved
	// rate is over the time the load ran, and the agents' requests are the run's.
	agents, _ := own["agents"].([]any)
	var sum float64
	for _, x := range agents {
		a, _ := x.(map[string]any)
		sum += a["requests"].(float64)
		if r, _ := a["achieved_rate"].(float64); r < 5 || r > 15 || a["rate_unit"] != "iterations/s" {
			t.Errorf("%v achieved %v %v, want about its offered 10 iterations/s over the time it ran", a["name"], a["achieved_rate"], a["rate_unit"])
		}
	}
	if got := summaryMetric(s, "http_reqs", "count"); len(agents) != 2 || sum != got {
		t.Errorf("%d agents with %v requests between them, the run %v", len(agents), sum, got)
	}
	if procs := agentProcesses(); len(procs) != 0 {
		t.Errorf("local agents left running after Ctrl-C: %v", procs)
	}
}

func TestAgentRefusesAShortToken(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "token"), []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := loadlens(t, dir, "agent", "--listen", "127.0.0.1:0", "--token-file", "token")
	if r.code != 2 || !strings.Contains(r.stderr, "at least 16") || !strings.Contains(r.stderr, "head -c 32 /dev/urandom | base64") {
		t.Fatalf("exit %d, stderr %q: want 2 saying the token is too short and how to make one", r.code, r.stderr)
	}
}

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestURLModeOverLocalAgents(t *testing.T) {
	url, count := countingTarget(t, time.Millisecond)
	dir := t.TempDir()
	r := loadlens(t, dir, "run", url+"/u", "--local-agents", "4", "--rate", "40", "--duration", "3s", "--results", "res", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	const planned = 120 // 40/s for 3 s, split over 4 agents
	s := summaryOf(t, onlyRunDir(t, filepath.Join(dir, "res")))
	if got := summaryMetric(s, "http_reqs", "count"); got != planned || count.Load() != planned {
		t.Errorf("summary.json counts %v requests, the target %d; the schedule plans %d", got, count.Load(), planned)
	}
	if n := strings.Count(r.stdout, "clock offset"); n != 4 {
		t.Errorf("%d agents reported, want 4:\n%s", n, r.stdout)
	}
	own, _ := s["loadlens"].(map[string]any)
	agents, _ := own["agents"].([]any)
	var rows float64
	for _, a := range agents {
		rows += a.(map[string]any)["requests"].(float64)
	}
	if len(agents) != 4 || rows != planned {
		t.Errorf("%d agent rows count %v requests, want 4 rows and %d", len(agents), rows, planned)
	}
	// The generator's CPU in the diagnosis is an agent's, never the
	// coordinator's: at most the busiest agent's busiest second.
	var most float64
	for _, a := range agents {
		most = max(most, a.(map[string]any)["cpu_cores_max"].(float64))
	}
	healthy, _ := own["healthy"].(string)
	if healthy == "" && strings.Contains(r.stdout, "the numbers are not the target's") {
		// a host too busy for 4 agents and a coordinator is rightly named instead of "no bottleneck"
		t.Logf("the host was busy: the diagnosis named the generator, so there is no healthy statement to read:\n%s", r.stdout)
		return
	}
	m := regexp.MustCompile(`the busiest agent used at most ([0-9.]+) of its [0-9.]+ cores`).FindStringSubmatch(healthy)
	if m == nil {
		t.Fatalf("the diagnosis does not give the busiest agent's CPU: %q", healthy)
	}
	if used, err := strconv.ParseFloat(m[1], 64); err != nil || used <= 0 || used > most*1.01 {
		t.Errorf("the diagnosis says an agent used %s cores; the agents' busiest second was %v", m[1], most)
	}
}

func TestDistributedRunRefusesURLFlagsWithATestFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte("name: t\nbase_url: http://127.0.0.1:1\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n      - get: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := loadlens(t, dir, "run", "t.yaml", "--local-agents", "2", "--rate", "5")
	if r.code != 2 || !strings.Contains(r.stderr, "--rate applies to URL mode") {
		t.Errorf("exit %d, stderr %q: want 2 and --rate refused", r.code, r.stderr)
	}
}

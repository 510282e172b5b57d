package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// reportData reads the JSON report.html's script draws from.
func reportData(t *testing.T, runDir string) (page string, data struct {
	Observed struct {
		New    []obsMeta `json:"n"`
		Points []struct {
			ID     int       `json:"i"`
			Values []float64 `json:"v"`
		} `json:"p"`
	} `json:"observed"`
}) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="loadlens-data">(.*?)</script>`).FindSubmatch(b)
	if m == nil {
		t.Fatal("report.html has no data script")
	}
	if err := json.Unmarshal(m[1], &data); err != nil {
		t.Fatalf("report.html's data: %v", err)
	}
	return string(b), data
}

func TestLocalAgentsReportChartsPerAgent(t *testing.T) {
	url, count := countingTarget(t, 2*time.Millisecond)
	dir := t.TempDir()
	test := fmt.Sprintf("name: agent-charts\nbase_url: %s\nscenarios:\n  open:\n    start_rate: 40\n    stages:\n      - {duration: 4s, target: 40}\n    flow:\n      - get: /a\n", url)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	r := loadlens(t, dir, "run", "t.yaml", "--local-agents", "2", "--results", "res", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	run := onlyRunDir(t, filepath.Join(dir, "res"))
	_, data := reportData(t, run)
	points := map[int][]float64{}
	for _, p := range data.Observed.Points {
		points[p.ID] = append(points[p.ID], p.Values...)
	}
	// metric → agent → the sum of its points
	sums := map[string]map[string]float64{}
	for _, m := range data.Observed.New {
		if m.Group != "agents" {
			continue
		}
		// The host's CPU names the agent's host too: the agent, then its host.
		if parts := 1 + boolInt(strings.HasPrefix(m.Name, "loadlens_agent_host_")); len(m.Parts) != parts || !strings.HasPrefix(m.Parts[0], "agent ") {
			t.Fatalf("series %s of the agents' group has parts %q, want the agent's name first, and %d in all", m.Name, m.Parts, parts)
		}
		if sums[m.Name] == nil {
			sums[m.Name] = map[string]float64{}
		}
		for _, v := range points[m.ID] {
			sums[m.Name][m.Parts[0]] += v
		}
	}
	for _, name := range []string{"loadlens_agent_iterations", "loadlens_agent_offered", "loadlens_agent_requests", "loadlens_agent_cpu_share",
		"loadlens_agent_cpu_cores", "loadlens_agent_lag_p99_s", "loadlens_agent_dropped", "loadlens_agent_errors"} {
		if len(sums[name]) != 2 {
			t.Errorf("chart %s has series for %d agents, want 2: %v", name, len(sums[name]), sums[name])
		}
	}
	for _, name := range []string{"loadlens_agent_iterations", "loadlens_agent_offered", "loadlens_agent_requests", "loadlens_agent_cpu_cores"} {
		for agent, sum := range sums[name] {
			if sum <= 0 {
				t.Errorf("%s of %s is zero all through the run", name, agent)
			}
		}
	}
	var perAgent float64
	for _, v := range sums["loadlens_agent_requests"] {
		perAgent += v
	}
	if got := count.Load(); int64(perAgent) != got || got != 160 {
		t.Errorf("the agents' requests add up to %v, the target counted %d, the schedule plans 160", perAgent, got)
	}
	var offered float64
	for _, v := range sums["loadlens_agent_offered"] {
		offered += v
	}
	if offered != 160 {
		t.Errorf("the agents' offered iterations add up to %v, want the schedule's 160", offered)
	}
	// summary.json's agent rows agree with the target's count too.
	var rows float64
	own, _ := summaryOf(t, run)["loadlens"].(map[string]any)
	agents, _ := own["agents"].([]any)
	for _, a := range agents {
		rows += a.(map[string]any)["requests"].(float64)
	}
	if len(agents) != 2 || int64(rows) != count.Load() {
		t.Errorf("summary.json's %d agent rows count %v requests, the target %d", len(agents), rows, count.Load())
	}

	// `loadlens report` re-renders the charts from run.db alone.
	if err := os.Remove(filepath.Join(run, "report.html")); err != nil {
		t.Fatal(err)
	}
	r = loadlens(t, dir, "report", run)
	if r.code != 0 {
		t.Fatalf("loadlens report: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	page, again := reportData(t, run)
	for _, w := range []string{"<th>AGENTS</th>", "agent 1 127.0.0.1:", "agent 2 127.0.0.1:"} {
		if !strings.Contains(page, w) {
			t.Errorf("the re-rendered report lacks the per-agent table's %q", w)
		}
	}
	if n, want := countGroup(again.Observed.New, "agents"), countGroup(data.Observed.New, "agents"); n != want {
		t.Errorf("the re-rendered report has %d per-agent series, the first %d", n, want)
	}
	if shot := os.Getenv("LOADLENS_SHOT_DIR"); shot != "" {
		b, _ := os.ReadFile(filepath.Join(run, "report.html"))
		_ = os.WriteFile(filepath.Join(shot, "agents-report.html"), b, 0o644)
	}
}

func TestOneProcessReportHasNoAgentCharts(t *testing.T) {
	url, _ := countingTarget(t, 0)
	dir := t.TempDir()
	test := fmt.Sprintf("name: one\nbase_url: %s\nscenarios:\n  open:\n    start_rate: 20\n    stages:\n      - {duration: 2s, target: 20}\n    flow:\n      - get: /a\n", url)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	r := loadlens(t, dir, "run", "t.yaml", "--results", "res", "--quiet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	page, data := reportData(t, onlyRunDir(t, filepath.Join(dir, "res")))
	if n := countGroup(data.Observed.New, "agents"); n != 0 || strings.Contains(page, "Per agent") {
		t.Errorf("a run in one process has %d per-agent series", n)
	}
}

// obsMeta is what the pages know of one observed series.
type obsMeta struct {
	ID    int      `json:"id"`
	Name  string   `json:"name"`
	Group string   `json:"group"`
	Parts []string `json:"parts"`
}

// countGroup counts the series in group g.
func countGroup(ms []obsMeta, g string) int {
	n := 0
	for _, m := range ms {
		if m.Group == g {
			n++
		}
	}
	return n
}

func TestLocalAgentsDashboardStreamsPerAgentSeries(t *testing.T) {
	url, _ := countingTarget(t, 0)
	dir := t.TempDir()
	test := fmt.Sprintf("name: agent-live\nbase_url: %s\nscenarios:\n  open:\n    start_rate: 20\n    stages:\n      - {duration: 6s, target: 20}\n    flow:\n      - get: /a\n", url)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	run := startLive(t, dir, "run", "t.yaml", "--local-agents", "2", "--results", "res", "--quiet")
	resp, err := http.Get(strings.TrimSuffix(run.dashboard, "/") + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The stream ends with the run; every agent's requests series must appear in it.
	want := map[string]bool{"loadlens_agent_requests": false, "agent 1 127.0.0.1:": false, "agent 2 127.0.0.1:": false}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	deadline := time.Now().Add(60 * time.Second)
	for sc.Scan() && time.Now().Before(deadline) {
		for w := range want {
			if strings.Contains(sc.Text(), w) {
				want[w] = true
			}
		}
	}
	for w, seen := range want {
		if !seen {
			t.Errorf("the dashboard's events never carried %q", w)
		}
	}
	if code := run.wait(t); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

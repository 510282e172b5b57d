package dist

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
)

const token = "s3cret-token"

// scheduleCount is how many iterations a test's open-model scenarios plan,
// counted by walking the whole schedule one arrival at a time.
func scheduleCount(t *testing.T, path string) int64 {
	t.Helper()
	p, err := plan.ParseFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, s := range p.Scenarios {
		a := plan.NewArrivals(&s.Load, plan.Whole)
		for _, ok := a.Next(); ok; _, ok = a.Next() {
			n++
		}
	}
	return n
}

func TestAgentsAgreeWithOneProcess(t *testing.T) {
	srv, count := countingServer(t, map[string]time.Duration{"/work": 2 * time.Millisecond})
	path := writeTest(t, fmt.Sprintf(`
name: agree
base_url: %s
scenarios:
  open:
    start_rate: 40
    stages:
      - {duration: 1500ms, target: 160}
      - {duration: 1500ms, target: 160}
    flow:
      - get: /work
`, srv.URL), nil)
	planned := scheduleCount(t, path)

	// The deadline for the hello must not outlive it: a run longer than it still gets every second.
	agents := startAgents(t, 4, token, func(c *AgentConfig) { c.helloWait = time.Second })
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(agents), Token: token})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	if res.Status != app.StatusCompleted {
		t.Fatalf("status %s, want completed\n%s", res.Status, out)
	}
	dist := readRun(t, res.Dir)
	byServer := count("/work")
	if got := totalRequests(dist); got != byServer || got != planned {
		t.Fatalf("4 agents: run.db has %d requests, the server counted %d, the schedule plans %d: all three must agree", got, byServer, planned)
	}

	p, err := plan.ParseFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	one, err := app.Run(context.Background(), app.RunConfig{Plan: p, ResultsDir: t.TempDir(), Out: &syncBuffer{}, Quiet: true, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	single := readRun(t, one.Dir)
	if got := totalRequests(single); got != planned || count("/work")-byServer != planned {
		t.Fatalf("one process: %d requests, the server counted %d more, the schedule plans %d", got, count("/work")-byServer, planned)
	}
	// Two runs against a live server never measure the same latencies; the
	// same target delay must show as the same distribution, within the
	// noise of a shared machine: p50 within 10 ms, or a factor of 3, of each other.
	d, s := dist.Endpoints[0].Duration.Quantile(50), single.Endpoints[0].Duration.Quantile(50)
	if diff := (d - s).Abs(); diff > 10*time.Millisecond && (d > 3*s || s > 3*d) {
		t.Errorf("p50 of 4 agents %s and of one process %s differ by %s", d, s, diff)
	}
	for _, q := range []time.Duration{d, s} {
		if q < 2*time.Millisecond {
			t.Errorf("p50 %s is below the target's own 2ms delay", q)
		}
	}
	if !strings.Contains(out, "AGENTS") || strings.Count(out, "clock offset") != 4 {
		t.Errorf("the output lacks the per-agent table or the clock offsets:\n%s", out)
	}
}

func TestOpenRateOfAgentsAddsUpToTheSchedule(t *testing.T) {
	for _, n := range []int{1, 3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			srv, count := countingServer(t, nil)
			path := writeTest(t, fmt.Sprintf(`
name: rate
base_url: %s
scenarios:
  ramp:
    start_rate: 7
    stages:
      - {duration: 2s, target: 93}
      - {duration: 1s, target: 11}
    flow:
      - get: /a
      - get: /b
`, srv.URL), nil)
			planned := scheduleCount(t, path)
			res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(startAgents(t, n, token, nil)), Token: token})
			if err != nil {
				t.Fatalf("Coordinate: %v\n%s", err, out)
			}
			r := readRun(t, res.Dir)
			var iters int64
			for _, s := range r.Scenarios {
				iters += s.Iterations + s.Dropped
			}
			if iters != planned || count("/a") != planned || count("/b") != planned {
				t.Fatalf("%d agents: %d iterations, the server counted %d /a and %d /b; the schedule plans %d", n, iters, count("/a"), count("/b"), planned)
			}
		})
	}
}

func TestHeterogeneousAgentsGiveTheMixturesPercentile(t *testing.T) {
	// Unique rows are split between the agents: agent 1 gets rows 0–49,
	// all fast; agent 2 rows 50–99, of which the last 10 are slow. So 10%
	// of all requests are slow, and the true p95 is a slow one; agent 1's
	// p95 is fast, and the mean of the two agents' p95s is far below slow.
	const slow = 300 * time.Millisecond
	srv, count := countingServer(t, map[string]time.Duration{"/slow": slow})
	var csv strings.Builder
	csv.WriteString("path\n")
	for i := range 100 {
		if i >= 90 {
			csv.WriteString("slow\n")
		} else {
			csv.WriteString("fast\n")
		}
	}
	path := writeTest(t, fmt.Sprintf(`
name: mixture
base_url: %s
scenarios:
  rows:
    iterations: 100
    vus: 10
    data: {file: rows.csv, mode: unique}
    flow:
      - get: /{{ path }}
        name: /row
`, srv.URL), map[string]string{"rows.csv": csv.String()})
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(startAgents(t, 2, token, nil)), Token: token})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	if count("/fast") != 90 || count("/slow") != 10 {
		t.Fatalf("the server saw %d fast and %d slow requests, want 90 and 10: unique rows were not partitioned", count("/fast"), count("/slow"))
	}
	r := readRun(t, res.Dir)
	h := r.Endpoints[0].Duration
	if h.Count() != 100 {
		t.Fatalf("%d durations merged, want 100", h.Count())
	}
	if p95 := h.Quantile(95); p95 < slow {
		t.Errorf("merged p95 %s is below the slow requests' %s: it is not the mixture's", p95, slow)
	}
	if p85 := h.Quantile(85); p85 >= slow {
		t.Errorf("merged p85 %s is at least the slow %s, but 90%% of requests were fast", p85, slow)
	}
}

func TestMergedRunIsTheMergeOfEveryAgentsSeconds(t *testing.T) {
	srv, _ := countingServer(t, map[string]time.Duration{"/x": time.Millisecond})
	path := writeTest(t, fmt.Sprintf(`
name: exact
base_url: %s
scenarios:
  open:
    rate: 150
    duration: 3s
    flow:
      - get: /x
`, srv.URL), nil)
	frames := map[string][][]byte{}
	cfg := Config{TestFile: path, Agents: addrsOf(startAgents(t, 3, token, nil)), Token: token}
	cfg.tap = func(agent string, snap []byte) { frames[agent] = append(frames[agent], append([]byte(nil), snap...)) }
	res, out, err := coordinateTest(t, cfg)
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	if len(frames) != 3 {
		t.Fatalf("frames from %d agents, want 3", len(frames))
	}
	want := metrics.NewHist()
	var n int64
	for _, list := range frames {
		for _, b := range list {
			var s metrics.Snapshot // decoded on its own, not by the coordinator
			if err := s.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if d := s.Endpoints[0].Duration; d != nil {
				want.Merge(d)
			}
			n += s.Endpoints[0].Requests
		}
	}
	r := readRun(t, res.Dir)
	got := r.Endpoints[0].Duration
	enc := func(h *metrics.Hist, reqs int64) []byte {
		s := metrics.Snapshot{Endpoints: []metrics.EndpointSecond{{Figures: metrics.Figures{Requests: reqs, Duration: h, Waiting: h}}}}
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := enc(got, r.Endpoints[0].Requests), enc(want, n); string(a) != string(b) {
		t.Fatalf("the whole run's histogram (%d requests, %d bytes) is not byte for byte the merge of the agents' seconds (%d requests, %d bytes)",
			r.Endpoints[0].Requests, len(a), n, len(b))
	}
	if n != 450 {
		t.Errorf("the agents sent %d requests, want 450", n)
	}
}

func TestSummaryNamesTheAgents(t *testing.T) {
	srv, _ := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf(`
name: closed
base_url: %s
scenarios:
  users:
    vus: 2
    duration: 1s
    flow:
      - get: /c
`, srv.URL), nil)
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(startAgents(t, 2, token, nil)), Token: token})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(res.Dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Agents []map[string]any `json:"agents"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Loadlens.Agents) != 2 {
		t.Fatalf("summary.json lists %d agents, want 2", len(s.Loadlens.Agents))
	}
	// A closed model offers no rate: the figure is null, not a made-up 0.
	if v, ok := s.Loadlens.Agents[0]["offered_rate"]; !ok || v != nil {
		t.Errorf("offered_rate of a closed-model agent = %v, want null", v)
	}
	html, err := os.ReadFile(res.Report)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `<table id="agents">`) || !strings.Contains(string(html), "agent 2 127.0.0.1:") {
		t.Errorf("report.html lacks the per-agent table")
	}
	if s.Loadlens.Agents[1]["segment"] != "1/2:1" {
		t.Errorf("agent 2's segment = %v, want 1/2:1", s.Loadlens.Agents[1]["segment"])
	}
}

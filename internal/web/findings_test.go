package web

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestChartsShadeOnlyTheFindingsThatConcernThem runs findings.js in node:
// each chart shades the findings of the kinds it can show, an observed
// chart only those of its own scrape target, and labels that would
// overlap go to rows of their own.
func TestChartsShadeOnlyTheFindingsThatConcernThem(t *testing.T) {
	node := needNode(t)
	fs := `[{"n":1,"kind":"cpu-saturation","title":"DB CPU saturated: 100% busy (node_cpu_seconds_total, role=db, target=host) from 0:05"},
		{"n":2,"kind":"pool-exhaustion","title":"DB pool exhausted: 4 of 4 (go_sql, db_name=shop, role=app, target=app)"},
		{"n":3,"kind":"generator-host-busy","title":"The generator's host was short of CPU"},
		{"n":4,"kind":"errors-at-load","title":"Errors start at 206 req/s offered (0:12)"},
		{"n":5,"kind":"saturation","title":"Saturation"},
		{"n":6,"kind":"target-held-vus","title":"Every VU was waiting"},
		{"n":7,"kind":"check-failed","title":"Check failed because the request failed"},
		{"n":8,"kind":"gc-pressure","title":"GC pressure (go_gc_duration_seconds_sum, role=app, target=app)"}]`
	script := "var window = {};\n" + chartsJS + "\n" + findingsJS + "\nvar fs = " + fs + ";\n" +
		`var keys = ["throughput", "latency", "vus", "bytes", "obs:host:cpu-cores", "obs:app:cpu-cores", "obs:app:pool-waits",
			"obs:app:pool-wait-time", "obs:app:gc-time", "obs:pg:gc-time", "obs:app:threads", "obs:loadlens:gen-cpu"];
		var out = {};
		keys.forEach(function (k) { out[k] = window.LL.findingsFor(fs, k).map(function (f) { return f.n; }); });
		var rows = [];
		out.rows = [[0, 20], [10, 30], [25, 40], [50, 60], [12, 18]].map(function (p) { return window.LL.labelRow(rows, p[0], p[1]); });
		process.stdout.write(JSON.stringify(out));`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-")
	cmd.Stdin = strings.NewReader(script)
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got map[string][]int
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("node wrote %q: %v", raw, err)
	}
	want := map[string][]int{
		"throughput": {4, 5, 6, 7}, "latency": {5}, "vus": {3, 5, 6}, "bytes": {},
		"obs:host:cpu-cores": {1}, "obs:app:cpu-cores": {}, "obs:app:pool-waits": {2}, "obs:app:pool-wait-time": {2},
		"obs:app:gc-time": {8}, "obs:pg:gc-time": {}, "obs:app:threads": {}, "obs:loadlens:gen-cpu": {3},
		"rows": {0, 1, 0, 0, 2},
	}
	for k, w := range want {
		if g := got[k]; !equalInts(g, w) {
			t.Errorf("%s: got %v, want %v", k, g, w)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

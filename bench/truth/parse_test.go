package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCountRequestsByRouteAndStatus(t *testing.T) {
	expo := `# HELP http_server_requests_seconds
# TYPE http_server_requests_seconds summary
http_server_requests_seconds_count{error="none",exception="none",method="GET",outcome="SUCCESS",status="200",uri="/apps/{id}/reviews"} 1200.0
http_server_requests_seconds_count{method="GET",status="503",uri="/apps/{id}/reviews",outcome="SERVER_ERROR"} 7
http_server_requests_seconds_count{method="GET",status="200",uri="/actuator/prometheus"} 30
http_server_requests_seconds_sum{method="GET",status="200",uri="/apps/{id}/reviews"} 12.5
http_server_requests_seconds_count{method="GET",status="200",uri="/a \"quoted\", one"} 2
`
	c, err := countRequests(strings.NewReader(expo), routeSet([]string{"/apps/{id}/reviews", `/a "quoted", one`}))
	if err != nil {
		t.Fatal(err)
	}
	if c[200] != 1202 || c[503] != 7 || c.Total() != 1209 || c.Failed() != 7 {
		t.Errorf("counts %v", c)
	}
	d := Counts{200: 1500, 503: 7, 404: 1}.Minus(c)
	if d[200] != 298 || d[503] != 0 || d[404] != 1 || d.Total() != 299 {
		t.Errorf("difference %v", d)
	}
}

func TestLogCounterCountsStatuses(t *testing.T) {
	p := filepath.Join(t.TempDir(), "access.log")
	os.WriteFile(p, []byte("200\n200\n502\n"), 0o644)
	c, err := logCounter{p}.Counts(context.Background())
	if err != nil || c[200] != 2 || c[502] != 1 {
		t.Errorf("%v %v", c, err)
	}
	os.WriteFile(p, []byte("200\nGET / HTTP/1.1\n"), 0o644)
	if _, err := (logCounter{p}).Counts(context.Background()); err == nil {
		t.Error("a line of another log format was read as a count")
	}
}

// TestParseInstances reads estimate's text as it prints it.
func TestParseInstances(t *testing.T) {
	cases := map[string]int{
		"Load estimate\n  base rate    given  = 500 req/s\n  instances    500 req/s ÷ 120 req/s per instance, rounded up  = 5 instances\n": 5,
		"  instances    4,500 req/s ÷ 1 req/s per instance, rounded up = 4,500 instances\n":                                                4500,
		"  instances    100 req/s ÷ 120 req/s per instance, rounded up = 1 instance\n":                                                     1,
		"no sustainable rate\n": 0,
		// a search cut short: its floor makes the count a most (cap-demo-first-page, run 4)
		"  instances, at most  38,924 req/s ÷ at least 8,481 req/s per instance (the capacity  = 5 instances\n                      search in\n": 5,
	}
	for out, want := range cases {
		got, ok := parseInstances(out)
		if got != want || ok != (want > 0) {
			t.Errorf("%q: %d %v, want %d", out, got, ok, want)
		}
	}
}

func TestReadCapacity(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "capacity.json"), []byte(`{"Config": {}, "Highest": 137.5, "Stop": "converged", "Steps": []}`), 0o644)
	c, err := readCapacity(dir)
	if err != nil || c.Highest != 137.5 || c.Stop != "converged" {
		t.Errorf("%+v %v", c, err)
	}
}

func TestV1Mounts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mountinfo")
	os.WriteFile(p, []byte(`25 20 0:22 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755
26 25 0:23 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
27 25 0:24 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
28 25 0:25 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`), 0o644)
	if cpu, acct := v1Mounts(p); cpu != "/sys/fs/cgroup/cpu" || acct != "/sys/fs/cgroup/cpuacct" {
		t.Errorf("separate: %q %q", cpu, acct)
	}
	os.WriteFile(p, []byte("26 25 0:23 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"), 0o644)
	if cpu, acct := v1Mounts(p); cpu != "/sys/fs/cgroup/cpu,cpuacct" || acct != cpu {
		t.Errorf("co-mounted: %q %q", cpu, acct)
	}
}

// TestRemoveStaleLeavesLiveHarnessesAlone checks that only what a dead
// harness left is removed.
func TestRemoveStaleLeavesLiveHarnessesAlone(t *testing.T) {
	dir := t.TempDir()
	names := map[string]bool{ // name → kept
		"loadlens-truth-2147483646-x":                        false, // no such process
		"loadlens-truth-1-y":                                 true,  // init: alive
		"loadlens-truth-" + strconv.Itoa(os.Getpid()) + "-z": true,  // this one
		"something-else":                                     true,
	}
	for n := range names {
		os.MkdirAll(filepath.Join(dir, n, "inner"), 0o755)
	}
	removeStale(dir)
	for n, kept := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", n, err == nil, kept)
		}
	}
}

package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/plan"
)

// cgroupFixture writes a /proc and a v1 /sys/fs/cgroup under root:
// listeners (port → pid) whose processes sit in cgroups (pid → cpu group),
// those named in quotas with a quota of that many cores.
func cgroupFixture(t *testing.T, root string, listeners map[int]int, groups map[int]string, quotas map[string]float64) {
	t.Helper()
	write := func(path, content string) {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tcp := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
	for port, pid := range listeners {
		inode := strconv.Itoa(7000 + pid)
		tcp += fmt.Sprintf("   0: 0100007F:%04X 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 %s 1\n", port, inode)
		if err := os.MkdirAll(filepath.Join(root, "proc", strconv.Itoa(pid), "fd"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("socket:["+inode+"]", filepath.Join(root, "proc", strconv.Itoa(pid), "fd", "3")); err != nil {
			t.Fatal(err)
		}
		write(filepath.Join("proc", strconv.Itoa(pid), "cgroup"), "1:cpu:/"+groups[pid]+"\n0::/\n")
	}
	write("proc/net/tcp", tcp)
	write("cg/cpu/cpu.cfs_quota_us", "-1\n")
	write("cg/cpu/cpu.cfs_period_us", "100000\n")
	for g, cores := range quotas {
		write("cg/cpu/"+g+"/cpu.cfs_quota_us", strconv.Itoa(int(cores*100000))+"\n")
		write("cg/cpu/"+g+"/cpu.cfs_period_us", "100000\n")
		write("cg/cpu/"+g+"/cpu.stat", "nr_periods 10\nnr_throttled 0\nthrottled_time 0\n")
	}
}

// TestCgroupMeterUnscrapedTarget: a loopback host the requests go to that
// no scrape covers is watched by the listener on its port, labelled
// target=host:port; one a scrape covers, or whose cgroup a scraped target's
// watch holds, is watched once under the scrape's name; none elsewhere.
func TestCgroupMeterUnscrapedTarget(t *testing.T) {
	root := t.TempDir()
	cgroupFixture(t, root,
		map[int]int{8080: 200, 8081: 201, 8082: 203, 9091: 204, 8083: 205},
		map[int]string{200: "slow", 201: "", 203: "app", 204: "svc", 205: "svc"},
		map[string]float64{"slow": 0.05, "app": 0.5, "svc": 0.5})
	flow := "scenarios:\n  s:\n    rate: 1\n    duration: 1s\n    flow:\n      - get: /x\n"
	for _, tc := range []struct {
		name, test string
		want       []string // target label and quota of each watch
	}{
		{"an unscraped base_url under a quota", "base_url: http://127.0.0.1:8080\n" + flow, []string{"127.0.0.1:8080 0.05"}},
		{"one listener by two names, and one under no quota", "base_url: http://localhost:8080\n" + flow +
			"      - get: http://127.0.0.1:8080/y\n      - get: http://127.0.0.1:8081/z\n", []string{"localhost:8080 0.05"}},
		{"a scrape covers the port", "base_url: http://127.0.0.1:8082\n" + flow +
			"observe:\n  targets:\n    - {name: app, url: 'http://127.0.0.1:8082/metrics', preset: go}\n", []string{"app 0.50"}},
		{"the service's metrics on a port of their own", "base_url: http://127.0.0.1:8083\n" + flow +
			"observe:\n  targets:\n    - {name: svc, url: 'http://127.0.0.1:9091/metrics'}\n", []string{"svc 0.50"}},
		{"another host", "base_url: http://10.0.0.5:8080\n" + flow, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := plan.Parse("t.yaml", []byte(tc.test), func(string) (string, bool) { return "", false })
			if err != nil {
				t.Fatal(err)
			}
			m := newCgroupMeter(p.Observe.Targets, p.Origins, filepath.Join(root, "proc"), filepath.Join(root, "cg"))
			var got []string
			for _, w := range m.watches {
				got = append(got, fmt.Sprintf("%s %.2f", w.labels[0].Value, w.limit.Cores))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("watched %q, want %q (origins %q)", got, tc.want, p.Origins)
			}
		})
	}
}

// TestCgroupMeterUnscrapedSeries: the unscraped target's readings are the
// series a scraped one's are (diagnose's cgroup names), labelled by its
// host:port.
func TestCgroupMeterUnscrapedSeries(t *testing.T) {
	root := t.TempDir()
	cgroupFixture(t, root, map[int]int{8080: 200}, map[int]string{200: "slow"}, map[string]float64{"slow": 0.05})
	m := newCgroupMeter(nil, []string{"http://127.0.0.1:8080"}, filepath.Join(root, "proc"), filepath.Join(root, "cg"))
	stat := filepath.Join(root, "cg", "cpu", "slow", "cpu.stat")
	if err := os.WriteFile(stat, []byte("nr_periods 20\nnr_throttled 9\nthrottled_time 400000000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range m.sample(1) {
		got = append(got, s.Name+"{"+strings.Join([]string{s.Labels[0].Name, s.Labels[0].Value}, "=")+"}")
	}
	want := []string{diagnose.CgroupQuota, diagnose.CgroupPeriods, diagnose.CgroupThrottled, diagnose.CgroupThrottledSec}
	for i := range want {
		want[i] += "{target=127.0.0.1:8080}"
	}
	if !slices.Equal(got, want) {
		t.Errorf("series %q, want %q", got, want)
	}
}

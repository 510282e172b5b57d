package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/diagnose"
)

// fakeCgroups writes a /proc/PID/cgroup for pid 42 naming /pod/loadlens in
// both hierarchies, and under cgroupRoot that group's files (v2's cpu.max
// and cpu.stat, or v1's cpu.cfs_* and cpu.stat) as files gives them,
// relative to the group's directory.
func fakeCgroups(t *testing.T, v2 bool, files map[string]string) (procRoot, cgroupRoot, group string) {
	t.Helper()
	root := t.TempDir()
	procRoot, cgroupRoot = filepath.Join(root, "proc"), filepath.Join(root, "cgroup")
	line, group := "0::/pod/loadlens\n", filepath.Join(cgroupRoot, "pod", "loadlens")
	if !v2 {
		line, group = "4:cpu,cpuacct:/pod/loadlens\n", filepath.Join(cgroupRoot, "cpu,cpuacct", "pod", "loadlens")
	}
	if err := os.MkdirAll(filepath.Join(procRoot, "42"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(procRoot, "42", "cgroup"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(group, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(group, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return procRoot, cgroupRoot, group
}

// TestOwnQuota checks that loadlens under a CPU quota records the quota as
// its capacity (not GOMAXPROCS, which Go rounds up from it) and its own
// cgroup's throttling each second under the generator's names and labels,
// and that without a quota (a laptop) it records neither.
func TestOwnQuota(t *testing.T) {
	v2stat := func(periods, throttled, usec int) string {
		return fmt.Sprintf("usage_usec 1000\nnr_periods %d\nnr_throttled %d\nthrottled_usec %d\n", periods, throttled, usec)
	}
	v1stat := func(periods, throttled, usec int) string {
		return fmt.Sprintf("nr_periods %d\nnr_throttled %d\nthrottled_time %d\n", periods, throttled, usec*1000)
	}
	tests := []struct {
		name     string
		v2       bool
		files    map[string]string
		stat     func(periods, throttled, usec int) string
		gomax    float64 // GOMAXPROCS
		quota    float64 // the quota recorded; 0: none found, and no series
		capacity float64
	}{
		{"v2, 1.5 cores under GOMAXPROCS 2", true, map[string]string{"cpu.max": "150000 100000\n"}, v2stat, 2, 1.5, 1.5},
		{"v1, 0.3 cores under GOMAXPROCS 1", false, map[string]string{"cpu.cfs_quota_us": "30000\n", "cpu.cfs_period_us": "100000\n"}, v1stat, 1, 0.3, 0.3},
		{"v2, 4 cores on a 2-CPU machine: GOMAXPROCS is the less", true, map[string]string{"cpu.max": "400000 100000\n"}, v2stat, 2, 4, 2},
		{"v2, no quota (a laptop)", true, map[string]string{"cpu.max": "max 100000\n"}, v2stat, 8, 0, 8},
		{"v1, no quota", false, map[string]string{"cpu.cfs_quota_us": "-1\n", "cpu.cfs_period_us": "100000\n"}, v1stat, 8, 0, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.files["cpu.stat"] = tt.stat(100, 10, 50_000)
			procRoot, cgroupRoot, group := fakeCgroups(t, tt.v2, tt.files)
			m := newOwnQuota(procRoot, cgroupRoot, 42)
			if got := m.capacity(tt.gomax); got != tt.capacity {
				t.Errorf("capacity %v, want %v (GOMAXPROCS %v)", got, tt.capacity, tt.gomax)
			}
			if err := os.WriteFile(filepath.Join(group, "cpu.stat"), []byte(tt.stat(110, 16, 250_000)), 0o644); err != nil {
				t.Fatal(err)
			}
			set := m.sample(3)
			if tt.quota == 0 {
				if len(set) > 0 {
					t.Errorf("series without a quota:\n%s", dump(set))
				}
				return
			}
			got := map[string]float64{}
			for _, s := range set {
				if s.Label("role") != "generator" || s.Label("target") != "loadlens" || s.Points[0].Sec != 3 {
					t.Errorf("%s: labels %v at %d, want the generator's at second 3", s.Name, s.Labels, s.Points[0].Sec)
				}
				if strings.HasPrefix(s.Name, "loadlens_cgroup_") {
					t.Errorf("%s: a target's name, which cgroupThrottling would call a throttled target", s.Name)
				}
				got[s.Name] = s.Points[0].Value
			}
			// periods and throttled periods rise by 10 and 6, over the few µs between two reads: their ratio is what counts
			if p, th := got[diagnose.GeneratorPeriods], got[diagnose.GeneratorThrottled]; p <= 0 || th/p < 0.59 || th/p > 0.61 {
				t.Errorf("throttled %v of %v periods a second, want 6 in 10; series:\n%s", th, p, dump(set))
			}
			if q := got[diagnose.GeneratorQuota]; q != tt.quota {
				t.Errorf("quota %v, want %v", q, tt.quota)
			}
			if h := got[diagnose.GeneratorThrottledSec]; h <= 0 {
				t.Errorf("held back %v, want the 0.2 s more of throttled time over the interval", h)
			}
		})
	}
}

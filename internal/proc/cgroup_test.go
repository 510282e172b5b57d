package proc

import (
	"os"
	"path/filepath"
	"testing"
)

// writeTree writes files (path → content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFindCPULimit reads the quota where the kernel enforces it, on
// fixtures of /proc and /sys/fs/cgroup as v2, hybrid and v1 hosts lay them out.
func TestFindCPULimit(t *testing.T) {
	v2stat := "usage_usec 9000000\nuser_usec 8000000\nsystem_usec 1000000\nnr_periods 120\nnr_throttled 90\nthrottled_usec 4500000\n"
	for _, tc := range []struct {
		name     string
		files    map[string]string
		want     string // the limit's directory under the cgroup root; "" for none
		cores    float64
		stat     CPUStat
		wantNone bool
	}{
		{name: "v2, the quota on the process's own group", files: map[string]string{
			"proc/42/cgroup":                  "0::/svc.slice/app.scope\n",
			"cg/svc.slice/cpu.max":            "max 100000\n",
			"cg/svc.slice/app.scope/cpu.max":  "50000 100000\n",
			"cg/svc.slice/app.scope/cpu.stat": v2stat,
		}, want: "svc.slice/app.scope", cores: 0.5, stat: CPUStat{Periods: 120, Throttled: 90, ThrottledSec: 4.5, UsageSec: 9, Cores: 0.5}},
		{name: "v2, a tighter parent's quota (a pod's over its container)", files: map[string]string{
			"proc/42/cgroup":                "0::/kubepods/pod1/ctr\n",
			"cg/kubepods/pod1/cpu.max":      "25000 100000\n",
			"cg/kubepods/pod1/cpu.stat":     v2stat,
			"cg/kubepods/pod1/ctr/cpu.max":  "200000 100000\n",
			"cg/kubepods/pod1/ctr/cpu.stat": "nr_periods 0\n",
		}, want: "kubepods/pod1", cores: 0.25, stat: CPUStat{Periods: 120, Throttled: 90, ThrottledSec: 4.5, UsageSec: 9, Cores: 0.25}},
		{name: "v1 cpu,cpuacct with its usage", files: map[string]string{
			"proc/42/cgroup": "4:memory:/x\n3:cpu,cpuacct:/limited\n0::/\n",
			"cg/cpu,cpuacct/limited/cpu.cfs_quota_us":  "150000\n",
			"cg/cpu,cpuacct/limited/cpu.cfs_period_us": "100000\n",
			"cg/cpu,cpuacct/limited/cpu.stat":          "nr_periods 10\nnr_throttled 4\nthrottled_time 200000000\n",
			"cg/cpu,cpuacct/limited/cpuacct.usage":     "3000000000\n",
		}, want: "cpu,cpuacct/limited", cores: 1.5, stat: CPUStat{Periods: 10, Throttled: 4, ThrottledSec: 0.2, UsageSec: 3, Cores: 1.5}},
		{name: "v1 cpu alone (this project's CI host), no usage there", files: map[string]string{
			"proc/42/cgroup":             "1:cpu:/t\n0::/\n",
			"cg/cpu/t/cpu.cfs_quota_us":  "50000\n",
			"cg/cpu/t/cpu.cfs_period_us": "100000\n",
			"cg/cpu/t/cpu.stat":          "nr_periods 3\nnr_throttled 0\nthrottled_time 0\n",
			"cg/cpu/cpu.cfs_quota_us":    "-1\n",
			"cg/cpu/cpu.cfs_period_us":   "100000\n",
		}, want: "cpu/t", cores: 0.5, stat: CPUStat{Periods: 3, UsageSec: -1, Cores: 0.5}},
		{name: "no quota anywhere", files: map[string]string{
			"proc/42/cgroup":           "1:cpu:/\n0::/app\n",
			"cg/app/cpu.max":           "max 100000\n",
			"cg/cpu/cpu.cfs_quota_us":  "-1\n",
			"cg/cpu/cpu.cfs_period_us": "100000\n",
		}, wantNone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.files)
			l, ok, err := FindCPULimit(filepath.Join(root, "proc"), filepath.Join(root, "cg"), 42)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantNone {
				if ok {
					t.Fatalf("found a limit %+v, want none", l)
				}
				return
			}
			if !ok || l.Dir != filepath.Join(root, "cg", tc.want) || l.Cores != tc.cores {
				t.Fatalf("limit %+v (found %v), want %s at %g cores", l, ok, tc.want, tc.cores)
			}
			st, err := ReadCPUStat(l)
			if err != nil {
				t.Fatal(err)
			}
			if st != tc.stat {
				t.Errorf("stat %+v, want %+v", st, tc.stat)
			}
		})
	}
}

// TestReadCPUStatNamesTheBadLine: a counter that is not a number is an
// error naming the file, its line and the field.
func TestReadCPUStatNamesTheBadLine(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"g/cpu.stat": "nr_periods 3\nnr_throttled x\n"})
	_, err := ReadCPUStat(CPULimit{Dir: filepath.Join(root, "g"), V2: true})
	if err == nil || err.Error() != filepath.Join(root, "g", "cpu.stat")+`:2: nr_throttled: strconv.ParseUint: parsing "x": invalid syntax` {
		t.Fatalf("err = %v", err)
	}
}

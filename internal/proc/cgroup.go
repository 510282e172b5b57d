package proc

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// CgroupRoot is where cgroup hierarchies are mounted: cgroup v2 there
// (or under unified/ on a hybrid host), v1's cpu controller under cpu/
// or cpu,cpuacct/.
const CgroupRoot = "/sys/fs/cgroup"

// CPULimit is where the kernel enforces a process's CPU quota: the cgroup
// on its path (its own or an ancestor's) with the fewest cores allowed.
type CPULimit struct {
	Dir   string  // the cgroup's directory
	V2    bool    // cpu.max and cpu.stat (v2), or cpu.cfs_* (v1)
	Cores float64 // the quota over the period
}

// CPUStat is a cgroup's CPU bandwidth counters, since the cgroup began.
type CPUStat struct {
	Periods, Throttled uint64  // enforcement periods that ran, and that used up the quota
	ThrottledSec       float64 // time the cgroup's threads were held back, in seconds
	UsageSec           float64 // CPU time used, in seconds; -1 where not counted there
	Cores              float64 // the quota over the period as read now; 0 when lifted
}

// FindCPULimit returns where the process pid's CPU quota is enforced,
// reading procRoot/PID/cgroup and the cgroup files under cgroupRoot;
// false when no cgroup on its path has a quota.
func FindCPULimit(procRoot, cgroupRoot string, pid int) (CPULimit, bool, error) {
	path := filepath.Join(procRoot, strconv.Itoa(pid), "cgroup")
	data, err := os.ReadFile(path)
	if err != nil {
		return CPULimit{}, false, err
	}
	var best CPULimit
	for _, dir := range cgroupDirs(string(data), cgroupRoot) {
		if l, ok := tightest(dir.path, dir.mount, dir.v2); ok && (best.Dir == "" || l.Cores < best.Cores) {
			best = l
		}
	}
	return best, best.Dir != "", nil
}

// cgroupDir is one hierarchy's directory for a process, and its mount.
type cgroupDir struct {
	path, mount string
	v2          bool
}

// cgroupDirs lists the directories that may hold a process's CPU quota,
// given /proc/PID/cgroup: the v2 group ("0::/path") and v1's cpu
// controller's, at each place a distribution mounts them.
func cgroupDirs(text, root string) []cgroupDir {
	var out []cgroupDir
	for _, line := range strings.Split(text, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			for _, m := range []string{root, filepath.Join(root, "unified")} {
				out = append(out, cgroupDir{filepath.Join(m, parts[2]), m, true})
			}
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "cpu" {
				for _, m := range []string{filepath.Join(root, parts[1]), filepath.Join(root, "cpu")} {
					out = append(out, cgroupDir{filepath.Join(m, parts[2]), m, false})
				}
			}
		}
	}
	return out
}

// tightest walks from dir up to its mount and returns the cgroup with the
// fewest cores allowed; false when none has a quota (or dir is absent).
func tightest(dir, mount string, v2 bool) (CPULimit, bool) {
	var best CPULimit
	mount = filepath.Clean(mount)
	for d, i := filepath.Clean(dir), 0; i < 64 && strings.HasPrefix(d, mount); d, i = filepath.Dir(d), i+1 {
		if cores, ok := readQuota(d, v2); ok && (best.Dir == "" || cores < best.Cores) {
			best = CPULimit{Dir: d, V2: v2, Cores: cores}
		}
		if d == mount {
			break
		}
	}
	return best, best.Dir != ""
}

// readQuota returns a cgroup's quota in cores: cpu.max's "QUOTA PERIOD"
// (v2; "max" is none), or cpu.cfs_quota_us over cpu.cfs_period_us (v1; -1
// is none).
func readQuota(dir string, v2 bool) (float64, bool) {
	if v2 {
		data, err := os.ReadFile(filepath.Join(dir, "cpu.max"))
		if err != nil {
			return 0, false
		}
		f := strings.Fields(string(data))
		if len(f) != 2 || f[0] == "max" {
			return 0, false
		}
		return quotaCores(f[0], f[1])
	}
	q, err1 := os.ReadFile(filepath.Join(dir, "cpu.cfs_quota_us"))
	p, err2 := os.ReadFile(filepath.Join(dir, "cpu.cfs_period_us"))
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return quotaCores(strings.TrimSpace(string(q)), strings.TrimSpace(string(p)))
}

// quotaCores divides a quota by its period, both in µs; false for no quota.
func quotaCores(quota, period string) (float64, bool) {
	q, err1 := strconv.ParseFloat(quota, 64)
	p, err2 := strconv.ParseFloat(period, 64)
	if err1 != nil || err2 != nil || q <= 0 || p <= 0 || math.IsInf(q, 0) {
		return 0, false
	}
	return q / p, true
}

// ReadCPUStat reads the limit's cgroup's bandwidth counters now: v2's
// cpu.stat (nr_periods, nr_throttled, throttled_usec, usage_usec), or v1's
// (throttled_time in ns) with cpuacct.usage where cpuacct shares the mount.
func ReadCPUStat(l CPULimit) (CPUStat, error) {
	path := filepath.Join(l.Dir, "cpu.stat")
	data, err := os.ReadFile(path)
	if err != nil {
		return CPUStat{}, err
	}
	st := CPUStat{UsageSec: -1}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		n, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			return CPUStat{}, fmt.Errorf("%s:%d: %s: %w", path, line, f[0], err)
		}
		switch f[0] {
		case "nr_periods":
			st.Periods = n
		case "nr_throttled":
			st.Throttled = n
		case "throttled_usec":
			st.ThrottledSec = float64(n) / 1e6
		case "throttled_time": // v1, in ns
			st.ThrottledSec = float64(n) / 1e9
		case "usage_usec":
			st.UsageSec = float64(n) / 1e6
		}
	}
	if !l.V2 {
		if u, err := os.ReadFile(filepath.Join(l.Dir, "cpuacct.usage")); err == nil {
			if n, err := strconv.ParseUint(strings.TrimSpace(string(u)), 10, 64); err == nil {
				st.UsageSec = float64(n) / 1e9
			}
		}
	}
	st.Cores, _ = readQuota(l.Dir, l.V2)
	return st, nil
}

package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// readMachine returns what this machine offers a run, for checking a
// test's load against it: memory available (the container's, when it has
// a lower limit), open files and cores. Figures it cannot read are 0, and
// go unchecked.
func readMachine() plan.Machine {
	m := plan.Machine{CPUs: runtime.GOMAXPROCS(0), OpenFiles: openFiles()}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m.MemAvailable = memAvailable(b)
	}
	if room, ok := cgroupRoom(); ok && (m.MemAvailable == 0 || room < m.MemAvailable) {
		m.MemAvailable = room
	}
	return m
}

// memAvailable reads MemAvailable from the text of /proc/meminfo, in bytes.
func memAvailable(meminfo []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 {
			return 0
		}
		return kb << 10
	}
	return 0
}

// cgroupRoom returns how much more memory this process's cgroup allows,
// when it sets a limit (v2 memory.max, or v1 memory.limit_in_bytes).
func cgroupRoom() (int64, bool) {
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	for _, c := range cgroupFiles(string(own)) {
		limit, okL := readInt(c[0])
		used, okU := readInt(c[1])
		if okL && okU && limit > 0 && limit < 1<<60 {
			return max(limit-used, 0), true
		}
	}
	return 0, false
}

// cgroupFiles lists the (limit, usage) files that may hold this process's
// memory limit, given the text of /proc/self/cgroup: its own cgroup's, and
// the root's as mounted inside a container.
func cgroupFiles(own string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(own, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			for _, dir := range []string{filepath.Join("/sys/fs/cgroup", parts[2]), "/sys/fs/cgroup"} {
				out = append(out, [2]string{filepath.Join(dir, "memory.max"), filepath.Join(dir, "memory.current")})
			}
		case strings.Contains(","+parts[1]+",", ",memory,"):
			for _, dir := range []string{filepath.Join("/sys/fs/cgroup/memory", parts[2]), "/sys/fs/cgroup/memory"} {
				out = append(out, [2]string{filepath.Join(dir, "memory.limit_in_bytes"), filepath.Join(dir, "memory.usage_in_bytes")})
			}
		}
	}
	return out
}

// readInt reads a file holding one integer ("max" is not one).
func readInt(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}

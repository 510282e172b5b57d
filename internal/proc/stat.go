package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// StatPath is where Linux counts every CPU's time by mode.
const StatPath = "/proc/stat"

// hostTimes is the host's CPU time since boot, in clock ticks, from the
// "cpu" line of /proc/stat, and the number of its CPUs.
type hostTimes struct {
	busy, steal, total uint64
	cpus               int
}

// parseStat reads the aggregate cpu line and counts the cpuN lines.
// Busy is user + nice + system + irq + softirq (guest time is already in
// user); idle and iowait are not CPU work; steal is time the hypervisor
// gave to other machines.
func parseStat(r io.Reader) (hostTimes, error) {
	var t hostTimes
	found := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || !strings.HasPrefix(fields[0], "cpu") {
			continue
		}
		if fields[0] != "cpu" {
			t.cpus++
			continue
		}
		if len(fields) < 9 {
			return t, fmt.Errorf("%s: the cpu line has %d fields, want at least 8", StatPath, len(fields)-1)
		}
		var v [8]uint64
		for i := range v {
			n, err := strconv.ParseUint(fields[i+1], 10, 64)
			if err != nil {
				return t, fmt.Errorf("%s: cpu field %d: %w", StatPath, i+1, err)
			}
			v[i] = n
		}
		user, nice, system, idle, iowait, irq, softirq, steal := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
		t.busy, t.steal = user+nice+system+irq+softirq, steal
		t.total = t.busy + idle + iowait + steal
		found = true
	}
	if err := sc.Err(); err != nil {
		return t, err
	}
	if !found || t.cpus == 0 {
		return t, fmt.Errorf("%s: no cpu lines", StatPath)
	}
	return t, nil
}

// HostReading is the host's CPU use over one interval, in cores.
type HostReading struct {
	Busy, Steal float64
	CPUs        int
	OK          bool
}

// HostMeter measures the whole host's CPU use between calls, so that late
// iterations can be told apart: loadlens busy, or the host busy with other
// processes, or the hypervisor taking the CPU.
type HostMeter struct {
	path string
	last hostTimes
	ok   bool
}

// NewHostMeter starts measuring now; on a host without /proc/stat it
// measures nothing.
func NewHostMeter(path string) *HostMeter {
	m := &HostMeter{path: path}
	m.last, m.ok = readHostTimes(path)
	return m
}

func readHostTimes(path string) (hostTimes, bool) {
	f, err := os.Open(path)
	if err != nil {
		return hostTimes{}, false
	}
	defer f.Close()
	t, err := parseStat(f)
	return t, err == nil
}

// Sample returns the host's CPU use since the previous call.
func (m *HostMeter) Sample() HostReading {
	now, ok := readHostTimes(m.path)
	prev, prevOK := m.last, m.ok
	m.last, m.ok = now, ok
	if !ok || !prevOK || now.total <= prev.total || now.busy < prev.busy || now.steal < prev.steal {
		return HostReading{}
	}
	dt := float64(now.total - prev.total)
	n := float64(now.cpus)
	return HostReading{Busy: float64(now.busy-prev.busy) / dt * n, Steal: float64(now.steal-prev.steal) / dt * n, CPUs: now.cpus, OK: true}
}

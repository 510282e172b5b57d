package app

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// procStat is where Linux counts every CPU's time by mode.
const procStat = "/proc/stat"

// hostTimes is the host's CPU time since boot, in clock ticks, from the
// "cpu" line of /proc/stat, and the number of its CPUs.
type hostTimes struct {
	busy, steal, total uint64
	cpus               int
}

// parseProcStat reads the aggregate cpu line and counts the cpuN lines.
// Busy is user + nice + system + irq + softirq (guest time is already in
// user); idle and iowait are not CPU work; steal is time the hypervisor
// gave to other machines.
func parseProcStat(r io.Reader) (hostTimes, error) {
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
			return t, fmt.Errorf("%s: the cpu line has %d fields, want at least 8", procStat, len(fields)-1)
		}
		var v [8]uint64
		for i := range v {
			n, err := strconv.ParseUint(fields[i+1], 10, 64)
			if err != nil {
				return t, fmt.Errorf("%s: cpu field %d: %w", procStat, i+1, err)
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
		return t, fmt.Errorf("%s: no cpu lines", procStat)
	}
	return t, nil
}

// hostReading is the host's CPU use over one interval, in cores.
type hostReading struct {
	busy, steal float64
	cpus        int
	ok          bool
}

// hostMeter measures the whole host's CPU use between calls, so that late
// iterations can be told apart: loadlens busy, or the host busy with other
// processes, or the hypervisor taking the CPU.
type hostMeter struct {
	path string
	last hostTimes
	ok   bool
}

// newHostMeter starts measuring now; on a host without /proc/stat it
// measures nothing.
func newHostMeter(path string) *hostMeter {
	m := &hostMeter{path: path}
	m.last, m.ok = readHostTimes(path)
	return m
}

func readHostTimes(path string) (hostTimes, bool) {
	f, err := os.Open(path)
	if err != nil {
		return hostTimes{}, false
	}
	defer f.Close()
	t, err := parseProcStat(f)
	return t, err == nil
}

// sample returns the host's CPU use since the previous call.
func (m *hostMeter) sample() hostReading {
	now, ok := readHostTimes(m.path)
	prev, prevOK := m.last, m.ok
	m.last, m.ok = now, ok
	if !ok || !prevOK || now.total <= prev.total || now.busy < prev.busy || now.steal < prev.steal {
		return hostReading{}
	}
	dt := float64(now.total - prev.total)
	n := float64(now.cpus)
	return hostReading{busy: float64(now.busy-prev.busy) / dt * n, steal: float64(now.steal-prev.steal) / dt * n, cpus: now.cpus, ok: true}
}

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc's CPU times (100 on Linux).
const clockTicks = 100

// minSampleGap is the shortest interval measured, in seconds: ticks of
// 10 ms make a shorter one too coarse.
const minSampleGap = 0.5

// hostSample is the host's busy CPU time, in ticks, and when it was read.
type hostSample struct {
	at   time.Time
	busy float64
}

// readHost reads /proc/stat's busy time: every mode but idle and iowait.
func readHost(statPath string) (busy float64, ok bool) {
	t, ok := readCPULine(statPath, "cpu")
	return t.busy, ok
}

// procStat is what /proc/<pid>/stat says of one process.
type procStat struct {
	ppid int
	cpu  float64 // utime + stime, ticks: a reaped child's time is not added again through cutime
}

// parseProcStat reads one /proc/<pid>/stat line; the command may hold
// spaces and parentheses, so fields are counted after its last ')'.
func parseProcStat(line string) (procStat, bool) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return procStat{}, false
	}
	fs := strings.Fields(line[i+1:])
	if len(fs) < 13 { // state, ppid, ... utime and stime are the 12th and 13th after the command
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(fs[1])
	var cpu float64
	for _, k := range []int{11, 12} {
		v, _ := strconv.ParseFloat(fs[k], 64)
		cpu += v
	}
	return procStat{ppid: ppid, cpu: cpu}, true
}

// treeCPU returns the CPU time of root and all its descendants, by pid.
func treeCPU(procDir string, root int) map[int]float64 {
	all := map[int]procStat{}
	ents, _ := os.ReadDir(procDir)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(procDir, e.Name(), "stat"))
		if err != nil {
			continue
		}
		if s, ok := parseProcStat(string(b)); ok {
			all[pid] = s
		}
	}
	ours := map[int]bool{root: true}
	for changed := true; changed; { // bounded: each pass adds a pid or ends
		changed = false
		for pid, s := range all {
			if !ours[pid] && ours[s.ppid] {
				ours[pid] = true
				changed = true
			}
		}
	}
	out := map[int]float64{}
	for pid := range ours {
		if s, ok := all[pid]; ok {
			out[pid] = s.cpu
		}
	}
	return out
}

// HostMeter samples, once a second, how much CPU the host's other
// processes (all but the harness and what it started) used: the busy-host
// guard. A process of ours that starts between two samples counts from 0;
// one that ends loses at most its last second (a child that lives less
// than a second is counted as another's: the guard errs towards busy).
type HostMeter struct {
	procDir, statPath string
	root              int
	now               func() time.Time
	mu                sync.Mutex
	prevTree          map[int]float64
	prev              hostSample
	others            []otherSample
}

type otherSample struct {
	at    time.Time
	cores float64
}

// NewHostMeter measures the host around the harness's process.
func NewHostMeter() *HostMeter {
	return &HostMeter{procDir: "/proc", statPath: "/proc/stat", root: os.Getpid(), now: time.Now}
}

// Run samples until ctx ends.
func (m *HostMeter) Run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	m.sample()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.sample()
		}
	}
}

func (m *HostMeter) sample() {
	busy, ok := readHost(m.statPath)
	if !ok {
		return
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	dt := now.Sub(m.prev.at).Seconds()
	if m.prevTree != nil && dt < minSampleGap {
		return // a late tick right after another: /proc/stat's 10 ms ticks over a sliver read as many cores
	}
	tree := treeCPU(m.procDir, m.root)
	if m.prevTree != nil {
		var ours float64
		for pid, v := range tree {
			d := v - m.prevTree[pid] // a new pid counts from 0
			if d < 0 {
				d = v // the pid was reused by a new process of ours
			}
			ours += d
		}
		other := max(0, (busy-m.prev.busy)-ours) / clockTicks / dt
		m.others = append(m.others, otherSample{now, other})
		if len(m.others) > 6*3600 { // bounded: six hours of seconds
			m.others = m.others[1:]
		}
	}
	m.prevTree, m.prev = tree, hostSample{at: now, busy: busy}
}

// Busy is what other processes used over a window.
type Busy struct {
	Mean, Max float64 // cores
	Samples   int
}

// Window returns other processes' CPU between from and to.
func (m *HostMeter) Window(from, to time.Time) Busy {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b Busy
	var sum float64
	for _, s := range m.others {
		if s.at.After(from) && !s.at.After(to) {
			sum += s.cores
			b.Max = max(b.Max, s.cores)
			b.Samples++
		}
	}
	if b.Samples > 0 {
		b.Mean = sum / float64(b.Samples)
	}
	return b
}

// WaitQuiet waits, at most limit, for a window of quiet seconds in which
// other processes used under threshold cores on average; it returns the
// last window measured.
func (m *HostMeter) WaitQuiet(ctx context.Context, threshold float64, quiet, limit time.Duration) Busy {
	deadline := time.Now().Add(limit)
	for {
		select {
		case <-ctx.Done():
			return Busy{}
		case <-time.After(quiet):
		}
		now := time.Now()
		b := m.Window(now.Add(-quiet), now)
		if b.Mean < threshold || now.After(deadline) {
			return b
		}
	}
}

// procTreeReader reads a process tree's CPU as a container's, for hosts
// without writable cgroups: no throttling is known then.
func procTreeReader(pid int) func() (CPUStat, error) {
	return func() (CPUStat, error) {
		var sum float64
		for _, v := range treeCPU("/proc", pid) {
			sum += v
		}
		if sum == 0 {
			if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err != nil {
				return CPUStat{}, err
			}
		}
		return CPUStat{UsageSeconds: sum / clockTicks}, nil
	}
}

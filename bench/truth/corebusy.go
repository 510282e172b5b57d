package main

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// healthyCoreBusy is the busy share of the target's core over the load's
// hold from which a healthy case's service (its JVM, PostgreSQL and Redis
// share that core) was at its CPU, whatever its latency said: a CPU
// finding there is no false positive, every other finding still is.
const healthyCoreBusy = 0.9

// coreTicks is one CPU's line of /proc/stat: its busy ticks (every mode
// but idle and iowait) and all of them.
type coreTicks struct{ busy, all float64 }

// readCore reads CPU cpu's ticks from a /proc/stat.
func readCore(statPath string, cpu int) (coreTicks, bool) {
	return readCPULine(statPath, "cpu"+strconv.Itoa(cpu))
}

// readCPULine reads the ticks of /proc/stat's line named name: "cpu" for
// the host's, "cpuN" for one CPU's.
func readCPULine(statPath, name string) (coreTicks, bool) {
	b, err := os.ReadFile(statPath)
	if err != nil {
		return coreTicks{}, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) < 5 || fs[0] != name {
			continue
		}
		var t coreTicks
		for i, f := range fs[1:min(len(fs), 9)] { // guest and guest_nice are already in user and nice
			v, _ := strconv.ParseFloat(f, 64)
			t.all += v
			if i != 3 && i != 4 { // idle, iowait
				t.busy += v
			}
		}
		return t, true
	}
	return coreTicks{}, false
}

// coreWindow reads a CPU's ticks at from and at to after now, on timers;
// its result says how busy the CPU was between them.
type coreWindow struct {
	mu         sync.Mutex
	first, end coreTicks
	reads      int
	timers     [2]*time.Timer
}

// watchCore starts a coreWindow over [from, to] from now on /proc/stat.
func watchCore(cpu int, from, to time.Duration) *coreWindow {
	w := &coreWindow{}
	read := func(into *coreTicks) func() {
		return func() {
			t, ok := readCore("/proc/stat", cpu)
			w.mu.Lock()
			defer w.mu.Unlock()
			if ok {
				*into = t
				w.reads++
			}
		}
	}
	w.timers[0] = time.AfterFunc(from, read(&w.first))
	w.timers[1] = time.AfterFunc(to, read(&w.end))
	return w
}

// busy stops the window's timers and returns the CPU's busy share between
// its two reads; ok is false when either did not happen.
func (w *coreWindow) busy() (float64, bool) {
	for _, t := range w.timers {
		t.Stop()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if d := w.end.all - w.first.all; w.reads == 2 && d > 0 {
		return (w.end.busy - w.first.busy) / d, true
	}
	return 0, false
}

// coreBusyMay returns the rules a healthy case's run may fire, by its
// target core's busy share: the CPU's when the core was full. A JVM on one
// core with PostgreSQL beside it filled its core at 70 % of what it serves
// within the SLO (its compiler still busy minutes after its start) while
// the harness's probe read p95 9 ms: healthy, at its CPU.
func coreBusyMay(share float64) []string {
	if share < healthyCoreBusy {
		return nil
	}
	return []string{"cpu-saturation"}
}

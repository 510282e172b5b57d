package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// schedTotals sums the scheduler's per-thread counters over a group's
// threads, as cAdvisor's sched metrics (container_cpu_schedstat_*) do:
// time run on a CPU and time waited in a run queue. A thread that exits
// keeps what it added, so the totals are counters that never fall.
type schedTotals struct {
	mu         sync.Mutex
	last       map[int][2]uint64 // tid → run, wait ns at the last read
	run, queue uint64            // ns, summed over every thread seen
}

// read adds the growth of every thread listed in tasksFile (cgroup v1's
// list of thread ids) and returns the totals in seconds.
func (t *schedTotals) read(procDir, tasksFile string) (run, queue float64, err error) {
	f, err := os.Open(tasksFile)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last == nil {
		t.last = map[int][2]uint64{}
	}
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan() && n < 100_000; n++ { // bounded: a JVM has hundreds of threads
		tid, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(procDir, strconv.Itoa(tid), "schedstat"))
		if err != nil {
			continue // gone since the list was read
		}
		r, w, ok := parseSchedstat(string(b))
		if !ok {
			continue
		}
		prev := t.last[tid]
		if r >= prev[0] && w >= prev[1] { // else a new thread reused the id: start it afresh
			t.run += r - prev[0]
			t.queue += w - prev[1]
		} else {
			t.run += r
			t.queue += w
		}
		t.last[tid] = [2]uint64{r, w}
	}
	return float64(t.run) / 1e9, float64(t.queue) / 1e9, sc.Err()
}

// parseSchedstat reads /proc/<tid>/schedstat: ns on a CPU, ns waiting in a
// run queue, timeslices.
func parseSchedstat(s string) (run, wait uint64, ok bool) {
	fs := strings.Fields(s)
	if len(fs) < 2 {
		return 0, 0, false
	}
	r, err1 := strconv.ParseUint(fs[0], 10, 64)
	w, err2 := strconv.ParseUint(fs[1], 10, 64)
	return r, w, err1 == nil && err2 == nil
}

// schedFile is a group's list of threads.
func (g *Group) schedFile() string { return filepath.Join(g.dirs[0], "tasks") }

// readSched fills a stat's scheduler counters from the group's threads.
func (g *Group) readSched(s *CPUStat) error {
	run, queue, err := g.sched.read("/proc", g.schedFile())
	if err != nil {
		return fmt.Errorf("schedstat: %w", err)
	}
	s.RunSec, s.RunqueueSec, s.Sched = run, queue, true
	return nil
}

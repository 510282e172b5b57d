package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeProc writes a /proc of processes (pid → ppid, utime, stime) and a
// /proc/stat whose first line is cpu with the given busy and idle ticks.
func fakeProc(t *testing.T, dir string, busy, idle int, procs map[int][3]int) {
	t.Helper()
	os.RemoveAll(dir)
	for pid, p := range procs {
		d := filepath.Join(dir, fmt.Sprint(pid))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		// the command holds a space and a parenthesis, as real ones may
		line := fmt.Sprintf("%d (a (b) c) S %d 1 1 0 -1 4194560 100 0 0 0 %d %d 7 7 20 0 1 0 100 0 0", pid, p[0], p[1], p[2])
		if err := os.WriteFile(filepath.Join(d, "stat"), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stat := fmt.Sprintf("cpu  %d 0 0 %d 0 0 0 0 0 0\ncpu0 1 2 3 4\n", busy, idle)
	if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOtherCoresLeaveOutTheHarnessTree checks the busy-host guard's
// arithmetic: the host's busy time less the harness's process tree's.
func TestOtherCoresLeaveOutTheHarnessTree(t *testing.T) {
	cases := []struct {
		name         string
		busy1, busy2 int
		tree1, tree2 map[int][3]int // pid → ppid, utime, stime
		want         float64        // other cores over the 1 s between the samples
	}{
		{"only the harness's children ran", 1000, 1150,
			map[int][3]int{10: {1, 0, 0}, 11: {10, 50, 0}, 12: {11, 0, 0}},
			map[int][3]int{10: {1, 0, 0}, 11: {10, 150, 0}, 12: {11, 20, 30}}, 0},
		{"another process took a core", 1000, 1150,
			map[int][3]int{10: {1, 0, 0}, 11: {10, 50, 0}, 99: {1, 0, 0}},
			map[int][3]int{10: {1, 0, 0}, 11: {10, 100, 0}, 99: {1, 100, 0}}, 1},
		{"a child started between the samples counts from 0", 1000, 1100,
			map[int][3]int{10: {1, 0, 0}},
			map[int][3]int{10: {1, 0, 0}, 13: {10, 60, 40}}, 0},
		{"a reused pid counts from 0", 1000, 1100,
			map[int][3]int{10: {1, 0, 0}, 11: {10, 500, 0}},
			map[int][3]int{10: {1, 0, 0}, 11: {10, 70, 0}}, 0.3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			clock := time.Unix(1000, 0)
			m := &HostMeter{procDir: dir, statPath: filepath.Join(dir, "stat"), root: 10, now: func() time.Time { return clock }}
			fakeProc(t, dir, c.busy1, 5000, c.tree1)
			m.sample()
			clock = clock.Add(time.Second)
			fakeProc(t, dir, c.busy2, 5000, c.tree2)
			m.sample()
			if len(m.others) != 1 {
				t.Fatalf("%d samples, want 1", len(m.others))
			}
			if got := m.others[0].cores; got < c.want-1e-9 || got > c.want+1e-9 {
				t.Errorf("other cores %.3f, want %.3f", got, c.want)
			}
		})
	}
}

func TestParseProcStat(t *testing.T) {
	s, ok := parseProcStat("42 (java (main)) S 7 42 42 0 -1 4194560 1 0 0 0 250 50 3 4 20 0 30 0 100")
	if !ok || s.ppid != 7 || s.cpu != 300 {
		t.Errorf("got %+v %v, want ppid 7 and 300 ticks (utime + stime, not the children's)", s, ok)
	}
	if _, ok := parseProcStat("garbage"); ok {
		t.Error("a line without a command parsed")
	}
}

func TestReadHostCountsBusyModesOnly(t *testing.T) {
	dir := t.TempDir()
	// user nice system idle iowait irq softirq steal guest guest_nice
	os.WriteFile(filepath.Join(dir, "stat"), []byte("cpu  10 20 30 1000 40 5 6 7 8 9\n"), 0o644)
	busy, ok := readHost(filepath.Join(dir, "stat"))
	if !ok || busy != 10+20+30+5+6+7 {
		t.Errorf("busy %v %v, want 78 (idle, iowait and the guest times, already in user, left out)", busy, ok)
	}
}

func TestWindowAveragesTheSamplesInIt(t *testing.T) {
	t0 := time.Now()
	m := &HostMeter{others: []otherSample{{t0, 1}, {t0.Add(time.Second), 0.2}, {t0.Add(2 * time.Second), 0.4}, {t0.Add(3 * time.Second), 2}}}
	b := m.Window(t0, t0.Add(2*time.Second))
	if b.Samples != 2 || b.Mean < 0.299 || b.Mean > 0.301 || b.Max != 0.4 {
		t.Errorf("window %+v, want the two samples after its start: mean 0.3, max 0.4", b)
	}
}

// TestSamplesTooCloseAreNotMeasured is the late ticker's case: two samples
// a sliver apart read one 10 ms tick as thousands of cores.
func TestSamplesTooCloseAreNotMeasured(t *testing.T) {
	dir := t.TempDir()
	clock := time.Unix(1000, 0)
	m := &HostMeter{procDir: dir, statPath: filepath.Join(dir, "stat"), root: 10, now: func() time.Time { return clock }}
	fakeProc(t, dir, 1000, 5000, map[int][3]int{10: {1, 0, 0}})
	m.sample()
	clock = clock.Add(2 * time.Microsecond)
	fakeProc(t, dir, 1001, 5000, map[int][3]int{10: {1, 0, 0}})
	m.sample()
	if len(m.others) != 0 {
		t.Fatalf("measured %v over 2µs", m.others)
	}
	clock = clock.Add(time.Second)
	fakeProc(t, dir, 1051, 5000, map[int][3]int{10: {1, 0, 0}})
	m.sample()
	if len(m.others) != 1 || m.others[0].cores < 0.509 || m.others[0].cores > 0.511 {
		t.Errorf("measured %v, want 0.51 cores (51 ticks over 1.000002 s, from the first sample)", m.others)
	}
}

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/testkit"
)

// ticksPerSecond is the kernel's USER_HZ, the unit of /proc's CPU times
// (100 on every Linux the project runs on).
const ticksPerSecond = 100

// otherCores runs f and returns the CPU, in cores, that processes other
// than this test, pids and the children f ran (the CPU time f returns)
// used meanwhile: what the rest of the machine took. It returns 0 where
// /proc cannot be read. (Not RUSAGE_CHILDREN: a child another test killed
// and reaped meanwhile would add its whole life's CPU.)
func otherCores(pids func() []int, f func() (childCPU time.Duration)) float64 {
	busy0, ok0 := hostBusyTicks()
	own0 := ownTicks(pids())
	start := time.Now()
	child := f()
	wall := time.Since(start).Seconds()
	busy1, ok1 := hostBusyTicks()
	own1 := ownTicks(pids()) // a process f started counts its whole life, all of it within f
	if !ok0 || !ok1 || wall <= 0 {
		return 0
	}
	other := float64((busy1-busy0)-(own1-own0))/ticksPerSecond/wall - child.Seconds()/wall
	return max(0, other)
}

// stolenCores runs f and returns the CPU, in cores, the hypervisor took
// from this machine meanwhile (proc.HostMeter, as a run measures it); 0
// where it cannot be read.
func stolenCores(f func()) float64 {
	host := proc.NewHostMeter(proc.StatPath)
	f()
	return host.Sample().Steal
}

// hostBusyTicks is the machine's CPU time spent on anything but idle and
// I/O wait, over all cores, from /proc/stat.
func hostBusyTicks() (int64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) < 8 || fields[0] != "cpu" {
		return 0, false
	}
	var busy int64
	for i, f := range fields[1:] {
		if i >= 8 { // guest times are already counted in user and nice
			break
		}
		n, _ := strconv.ParseInt(f, 10, 64)
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy, true
}

// ownTicks is the CPU time of this test process and pids (still
// running), in ticks.
func ownTicks(pids []int) int64 {
	var n int64
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		n += tvTicks(ru.Utime) + tvTicks(ru.Stime)
	}
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// fields after the command name, which may hold spaces: state is 3rd, utime 14th, stime 15th
		_, rest, ok := bytes.Cut(b, []byte(") "))
		f := strings.Fields(string(rest))
		if !ok || len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		n += u + s
	}
	return n
}

func tvTicks(tv syscall.Timeval) int64 {
	return (tv.Sec*1_000_000 + int64(tv.Usec)) * ticksPerSecond / 1_000_000
}

// TestOtherCoresSeesAHog checks the busy-host measure: processes spinning
// beside the test, one per two cores (the busy limit is a share of the
// cores), are counted as other processes' CPU (the machine's busy time is
// over every core, so the hogs' share shows whatever else runs).
func TestOtherCoresSeesAHog(t *testing.T) {
	if _, ok := hostBusyTicks(); !ok {
		t.Skip("no /proc/stat here")
	}
	var hogs []int
	for range max(1, runtime.NumCPU()/2) {
		hog := exec.Command("sh", "-c", "while :; do :; done")
		if err := hog.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { hog.Process.Kill(); hog.Wait() })
		hogs = append(hogs, hog.Process.Pid)
	}
	deadline := time.Now().Add(1500 * time.Millisecond)
	other := otherCores(func() []int { return nil }, func() time.Duration {
		for time.Now().Before(deadline) { // this test's own CPU is not the hogs'
			runtime.Gosched()
		}
		return 0
	})
	t.Logf("other processes used %.2f cores", other)
	if other < testkit.BusyCores() {
		t.Errorf("%d spinning processes beside the test: other processes used %.2f cores, want at least %.2f", len(hogs), other, testkit.BusyCores())
	}
	hogTicks := ownTicks(hogs) - ownTicks(nil)
	if hogTicks <= 0 {
		t.Errorf("the hogs' own CPU time reads %d ticks", hogTicks)
	}
}

// judgeOnQuietHost is testkit.JudgeOnQuietHost for attempts that run
// processes: attempt returns what is wrong with its outcome and the CPU time
// of the children it ran; pids are processes of the test's own (the shop)
// whose CPU is not the rest of the machine's.
func judgeOnQuietHost(t *testing.T, pids func() []int, attempt func() ([]string, time.Duration)) {
	t.Helper()
	testkit.JudgeOnQuietHost(t, func() (problems []string, other float64) {
		other = otherCores(pids, func() (cpu time.Duration) {
			problems, cpu = attempt()
			return cpu
		})
		return problems, other
	})
}

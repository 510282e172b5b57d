package testkit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// peakEnv carries the argument of a test run again as a child process.
const peakEnv = "LOADLENS_PEAK_CHILD"

// childSpace is the address space a child may take: a workload that is
// not bounded fails the test there instead of taking a shared machine's
// memory (a fan-out spec once reached 22.5 GB).
const childSpace = 4 << 30

// PeakChild returns the argument a test was run with by PeakMemory, and
// whether it runs as that child: it then does its work on arg, calls
// ReportPeak and returns. The child can take at most 4 GiB of address
// space.
func PeakChild() (arg string, ok bool) {
	arg, ok = os.LookupEnv(peakEnv)
	if ok {
		limitSpace(childSpace)
	}
	return arg, ok
}

// Usage is what a child process took: the most resident memory it held
// (VmHWM), and its CPU time, user and system.
type Usage struct {
	Peak int64
	CPU  time.Duration
}

// PeakMemory runs the calling test again in a child process of the test
// binary, with PeakChild returning arg, and returns the most resident
// memory the child held (VmHWM): a peak no sampling in the test's own
// process can miss, and without the test's own allocations. The child
// fails the test when it fails or takes longer than limit.
func PeakMemory(t *testing.T, arg string, limit time.Duration) int64 {
	t.Helper()
	return RunChild(t, arg, limit).Peak
}

// RunChild is PeakMemory that also returns the child's CPU time, which
// judges how work grows with the input better than the time on a busy
// machine's clock.
func RunChild(t *testing.T, arg string, limit time.Duration) Usage {
	t.Helper()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status here: the peak memory of a process is read from it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), peakEnv+"="+arg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s with %s: still running after %v", t.Name(), arg, limit)
	}
	if err != nil {
		t.Fatalf("%s with %s: %v\n%s", t.Name(), arg, err, out.String())
	}
	m := regexp.MustCompile(`peak-memory-kB=(\d+)`).FindSubmatch(out.Bytes())
	if m == nil {
		t.Fatalf("%s with %s: the child did not report its memory (call ReportPeak)\n%s", t.Name(), arg, out.String())
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	u := Usage{Peak: kb << 10, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	t.Logf("%s: peak resident memory %d MiB, CPU %v, in %v", arg, kb>>10, u.CPU.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return u
}

// ReportPeak writes the process's peak resident memory for PeakMemory;
// the child calls it when its work is done.
func ReportPeak() {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	if m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status); m != nil {
		fmt.Printf("peak-memory-kB=%s\n", m[1])
	}
}

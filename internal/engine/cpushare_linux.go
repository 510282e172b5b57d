package engine

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// processCPU returns the CPU time the process's threads have used, and
// that plus the time they waited, runnable, for a CPU
// (/proc/self/task/*/schedstat): what the process asked of the CPU, so
// that one starved by other processes can be told from one that is not.
func processCPU() (used, asked time.Duration, ok bool) {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return 0, 0, false
	}
	defer d.Close()
	tids, err := d.Readdirnames(-1)
	if err != nil {
		return 0, 0, false
	}
	var runs, sum int64
	buf := make([]byte, 128)
	for _, tid := range tids {
		run, wait, ok := readSchedstat("/proc/self/task/"+tid+"/schedstat", buf)
		if ok {
			runs += run
			sum += run + wait
		}
	}
	return time.Duration(runs), time.Duration(sum), true
}

// readSchedstat reads a schedstat file: nanoseconds on a CPU, nanoseconds
// runnable and waiting for one, and time slices.
func readSchedstat(path string, buf []byte) (run, wait int64, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, false // the thread has exited
	}
	n, _ := f.Read(buf)
	f.Close()
	fields := bytes.Fields(buf[:n])
	if len(fields) < 2 {
		return 0, 0, false
	}
	run, err1 := strconv.ParseInt(string(fields[0]), 10, 64)
	wait, err2 := strconv.ParseInt(string(fields[1]), 10, 64)
	return run, wait, err1 == nil && err2 == nil
}

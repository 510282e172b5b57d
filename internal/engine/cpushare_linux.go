package engine

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// processCPU returns the CPU time the process's threads have used plus the
// time they waited, runnable, for a CPU (/proc/self/task/*/schedstat): what
// the process asked of the CPU, so that one starved by other processes
// counts as busy as one that uses its cores up.
func processCPU() (time.Duration, bool) {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return 0, false
	}
	defer d.Close()
	tids, err := d.Readdirnames(-1)
	if err != nil {
		return 0, false
	}
	var sum int64
	buf := make([]byte, 128)
	for _, tid := range tids {
		run, wait, ok := readSchedstat("/proc/self/task/"+tid+"/schedstat", buf)
		if ok {
			sum += run + wait
		}
	}
	return time.Duration(sum), true
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

package app

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// threadsWait returns the time the process's threads have spent runnable
// and waiting for a CPU (the second field of /proc/self/task/*/schedstat).
func threadsWait() (time.Duration, bool) {
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
	for _, tid := range tids {
		b, err := os.ReadFile("/proc/self/task/" + tid + "/schedstat")
		if err != nil {
			continue // the thread has exited
		}
		if f := bytes.Fields(b); len(f) >= 2 {
			if w, err := strconv.ParseInt(string(f[1]), 10, 64); err == nil {
				sum += w
			}
		}
	}
	return time.Duration(sum), true
}

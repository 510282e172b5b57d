package engine

import "os"

// openFDs counts the file descriptors the process holds; -1 when it cannot.
func openFDs() int64 {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return -1
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return -1
	}
	return int64(len(names)) - 1 // less the directory's own descriptor
}

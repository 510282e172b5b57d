package proc

import (
	"io"
	"os"
)

// fdsPerPause is how many of /proc/self/fd's names OpenFDs reads between
// two pauses: a run with 10,000 connections has as many to read.
const fdsPerPause = 64

// OpenFDs counts the process's open file descriptors where /proc allows,
// -1 where not. Linux 6.2 and later give the count as the directory's size,
// for one stat; reading the names instead cost ~1 ms of CPU a second with
// 400 connections, so older kernels are read with a pause between batches
// of fdsPerPause names.
func OpenFDs(pause func()) int {
	if pause == nil {
		pause = func() {}
	}
	if fi, err := os.Stat("/proc/self/fd"); err == nil && fi.Size() > 0 {
		return int(fi.Size())
	}
	return openFDsByName(pause)
}

// openFDsByName counts /proc/self/fd's names, -1 where it cannot.
func openFDsByName(pause func()) int {
	f, err := os.Open("/proc/self/fd")
	if err != nil {
		return -1
	}
	defer f.Close()
	n := 0
	for {
		names, err := f.Readdirnames(fdsPerPause)
		n += len(names)
		if err == io.EOF {
			return n - 1 // minus the descriptor reading the directory
		}
		if err != nil {
			return -1
		}
		pause()
	}
}

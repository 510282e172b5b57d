//go:build linux || darwin || freebsd

package app

import "syscall"

// fileSizeLimit returns the process's file size limit (RLIMIT_FSIZE), and
// false when there is none.
func fileSizeLimit() (int64, bool) {
	var rl syscall.Rlimit
	// RLIM_INFINITY is all ones, so one bound covers it on every platform.
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &rl); err != nil || uint64(rl.Cur) > 1<<62 {
		return 0, false
	}
	return int64(rl.Cur), true
}

// freeSpace returns the bytes an unprivileged process may still write on
// the file system that holds dir.
func freeSpace(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize)), true
}

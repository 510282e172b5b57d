//go:build unix

package cli

import "syscall"

// openFiles returns how many files this process may open. Go raises the
// soft limit to the hard one at start-up, so the soft limit is the figure.
func openFiles() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}

//go:build unix

package testkit

import "syscall"

// limitSpace caps the process's address space at n bytes.
func limitSpace(n uint64) {
	syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n})
}

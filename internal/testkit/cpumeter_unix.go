//go:build unix

package testkit

import (
	"syscall"
	"testing"
)

// CPUMeter reports the process's user and system CPU time per iteration
// when the returned func runs (deferred at a benchmark's start): on a
// shared machine, CPU time is steadier than wall time. It counts every
// thread, an in-process test server's included.
func CPUMeter(b *testing.B) func() {
	var start syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &start)
	return func() {
		var end syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &end)
		n := float64(b.N)
		b.ReportMetric(float64(end.Utime.Nano()-start.Utime.Nano())/n, "user-ns/op")
		b.ReportMetric(float64(end.Stime.Nano()-start.Stime.Nano())/n, "sys-ns/op")
	}
}

package testkit

import "runtime"

// Allocated returns the bytes f allocates, for tests that bound what
// refusing bad input may cost.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

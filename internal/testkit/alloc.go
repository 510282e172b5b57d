package testkit

import "runtime"

// Allocated returns the bytes f allocates, for tests that bound what
// refusing bad input may cost. TotalAlloc counts every goroutine's
// allocations, so another goroutine's (the runtime's, the test framework's)
// can land inside one call on a busy host: f runs three times and the least
// is what f itself allocated.
func Allocated(f func()) uint64 {
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

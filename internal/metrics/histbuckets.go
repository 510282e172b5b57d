package metrics

import "time"

// Buckets calls fn once per populated bucket of h, in ascending order, with
// the lowest duration the bucket holds and its count; for a nil or empty h
// it never calls fn. It lets a reader resample seconds of a run (compare's
// bootstrap) without merging histograms again for every resample.
func (h *Hist) Buckets(fn func(low time.Duration, count int64)) {
	if h == nil || h.p == nil {
		return
	}
	h.p.ForEachBucket(func(v, c int64) bool {
		fn(time.Duration(v)*time.Microsecond, c)
		return true
	})
}

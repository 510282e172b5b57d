package output

import (
	"math"
	"slices"
	"sort"
	"time"
)

// nativeSchema is the resolution of the native histograms: buckets grow by
// 2^(1/8), about 9 %, Prometheus's default for instrumented code.
const nativeSchema = 3

// Native is a cumulative exponential histogram of durations in seconds, in
// Prometheus's native-histogram layout: bucket i holds values in
// (2^((i-1)/8), 2^(i/8)]; zero durations go to the zero bucket.
type Native struct {
	Count     uint64
	Sum       float64 // seconds; from the histogram's mean, so to its precision
	ZeroCount uint64
	Buckets   []Bucket // ascending index, populated buckets only
}

// Bucket is one populated bucket of a Native histogram.
type Bucket struct {
	Index int32
	Count uint64
}

// nativeBounds are the bucket boundaries within one power of two, as
// fractions in [0.5, 1): Prometheus's own way of finding a bucket, exact at
// the boundaries where a logarithm would round either way.
var nativeBounds = func() (b [1 << nativeSchema]float64) {
	for k := range b {
		b[k] = math.Exp2(float64(k)/(1<<nativeSchema)) / 2
	}
	return b
}()

// nativeIndex returns the bucket of a positive value in seconds.
func nativeIndex(v float64) int32 {
	frac, exp := math.Frexp(v)
	return int32(sort.SearchFloat64s(nativeBounds[:], frac) + (exp-1)*len(nativeBounds))
}

// nativeAcc accumulates a run's durations into native buckets.
type nativeAcc struct {
	count, zero uint64
	sum         float64
	buckets     map[int32]uint64
}

// add counts one bucket of a second's histogram: n durations of at least low.
func (a *nativeAcc) add(low time.Duration, n int64) {
	a.count += uint64(n)
	if low <= 0 {
		a.zero += uint64(n)
		return
	}
	if a.buckets == nil {
		a.buckets = map[int32]uint64{}
	}
	a.buckets[nativeIndex(low.Seconds())] += uint64(n)
}

// snapshot returns the histogram so far, independent of a.
func (a *nativeAcc) snapshot() Native {
	n := Native{Count: a.count, Sum: a.sum, ZeroCount: a.zero, Buckets: make([]Bucket, 0, len(a.buckets))}
	for i, c := range a.buckets {
		n.Buckets = append(n.Buckets, Bucket{Index: i, Count: c})
	}
	slices.SortFunc(n.Buckets, func(x, y Bucket) int { return int(x.Index) - int(y.Index) })
	return n
}

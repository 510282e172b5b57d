package engine

import (
	"math"
	"runtime/metrics"
	"time"
)

// schedLatencyName is the runtime's histogram of how long goroutines waited,
// runnable, for a CPU before they ran.
const schedLatencyName = "/sched/latencies:seconds"

// schedLatency reads how long goroutines waited to run over a window: when
// the VUs wait for the CPU rather than for the target, the generator is the
// queue, and more VUs only lengthen it.
type schedLatency struct {
	s    []metrics.Sample
	prev []uint64
	at   time.Time
	q    time.Duration // the quantile of the last whole window; negative: none yet
}

func newSchedLatency() *schedLatency {
	return &schedLatency{s: []metrics.Sample{{Name: schedLatencyName}}, q: -1}
}

// quantile returns the q-th quantile (0..1) of the scheduling latencies of
// the last window of at least every, reading the runtime when one has
// passed; negative until a window holds enough samples.
func (l *schedLatency) quantile(now time.Time, every time.Duration, q float64) time.Duration {
	if !l.at.IsZero() && now.Sub(l.at) < every {
		return l.q
	}
	metrics.Read(l.s)
	if l.s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return -1
	}
	h := l.s[0].Value.Float64Histogram()
	first := l.at.IsZero()
	l.at = now
	if len(l.prev) != len(h.Counts) {
		l.prev = make([]uint64, len(h.Counts))
		first = true
	}
	var total uint64
	for i, c := range h.Counts {
		total += c - l.prev[i]
	}
	if first || total < minSchedSamples {
		copy(l.prev, h.Counts)
		l.q = -1
		return l.q
	}
	want := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range h.Counts {
		seen += c - l.prev[i]
		if seen >= want {
			l.q = time.Duration(bucketTop(h.Buckets, i) * float64(time.Second))
			break
		}
	}
	copy(l.prev, h.Counts)
	return l.q
}

// minSchedSamples is the fewest latencies a window's quantile is taken from.
const minSchedSamples = 20

// bucketTop returns the upper bound of bucket i, or its lower bound for the
// last, unbounded one.
func bucketTop(b []float64, i int) float64 {
	if top := b[i+1]; !math.IsInf(top, 1) {
		return top
	}
	return b[i]
}

// runnableName is the runtime's count of goroutines ready to run but not
// running: VUs waiting for a CPU rather than for the target.
const runnableName = "/sched/goroutines/runnable:goroutines"

// runnableEvery is how often the count is read.
const runnableEvery = 10 * time.Millisecond

// runnable reads the runtime's count of runnable goroutines, at most every
// runnableEvery. Only the scheduler goroutine uses it.
type runnable struct {
	s  []metrics.Sample
	at time.Time
	n  int64 // negative: unknown
}

func newRunnable() *runnable {
	return &runnable{s: []metrics.Sample{{Name: runnableName}}, n: -1}
}

// get returns the latest count, reading it when runnableEvery has passed.
func (r *runnable) get(now time.Time) int64 {
	if !r.at.IsZero() && now.Sub(r.at) < runnableEvery {
		return r.n
	}
	r.at = now
	metrics.Read(r.s)
	if r.s[0].Value.Kind() != metrics.KindUint64 {
		r.n = -1
		return r.n
	}
	r.n = int64(r.s[0].Value.Uint64())
	return r.n
}

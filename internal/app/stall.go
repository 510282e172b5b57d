package app

import (
	"math"
	"runtime/metrics"
	"time"
)

// stallMeter measures, between calls, how long loadlens's goroutines
// waited, runnable, for a CPU (the Go runtime's scheduling latency) and
// how long its threads did (the kernel's run-queue wait): a VU whose
// response has arrived but that cannot run to read it adds that wait to
// the latency it records. The closed model has no schedule to be late on,
// so this is how a starved generator shows in it.
type stallMeter struct {
	s        []metrics.Sample
	prev     []uint64
	wait     time.Duration // the threads' run-queue wait so far
	waitOK   bool
	lastWall time.Time
}

// schedLatencies is the runtime's histogram of goroutines' waits to run.
const schedLatencies = "/sched/latencies:seconds"

// newStallMeter starts measuring now.
func newStallMeter() *stallMeter {
	m := &stallMeter{s: []metrics.Sample{{Name: schedLatencies}}, lastWall: time.Now()}
	m.p99()
	m.wait, m.waitOK = threadsWait()
	return m
}

// stall is one interval's reading; a negative figure was not measured.
type stall struct {
	p99       float64 // seconds: the 99th percentile of the goroutines' waits to run
	waitCores float64 // the threads' run-queue wait over the interval, in cores' worth
}

// sample returns the interval since the previous call.
func (m *stallMeter) sample() stall {
	now := time.Now()
	st := stall{p99: m.p99(), waitCores: -1}
	wait, ok := threadsWait()
	if wall := now.Sub(m.lastWall); ok && m.waitOK && wall > 0 {
		st.waitCores = max(float64(wait-m.wait), 0) / float64(wall) // an exited thread takes its wait along
	}
	m.wait, m.waitOK, m.lastWall = wait, ok, now
	return st
}

// p99 returns the 99th percentile of the waits counted since the previous
// call, as the upper bound of its bucket, in seconds; 0 when none were.
func (m *stallMeter) p99() float64 {
	metrics.Read(m.s)
	if m.s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return -1
	}
	h := m.s[0].Value.Float64Histogram()
	if len(m.prev) != len(h.Counts) {
		m.prev = make([]uint64, len(h.Counts))
	}
	var total uint64
	for i, c := range h.Counts {
		total += c - m.prev[i]
	}
	q := 0.0
	if total > 0 {
		want := uint64(math.Ceil(0.99 * float64(total)))
		var seen uint64
		for i, c := range h.Counts {
			if seen += c - m.prev[i]; seen >= want {
				q = h.Buckets[i+1]
				if math.IsInf(q, 1) {
					q = h.Buckets[i]
				}
				break
			}
		}
	}
	copy(m.prev, h.Counts)
	return q
}

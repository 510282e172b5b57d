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

// StallMeter is stallMeter for an agent of a distributed run, which sends
// its readings with each second so that the coordinator records the
// agents' waits for a CPU, not its own.
type StallMeter struct{ m *stallMeter }

// NewStallMeter starts measuring now.
func NewStallMeter() *StallMeter { return &StallMeter{newStallMeter()} }

// Sample returns, since the previous call, the goroutines' scheduling
// latency p99 in seconds and the threads' run-queue wait in cores' worth;
// NaN where it could not be measured.
func (s *StallMeter) Sample() (p99, waitCores float64) {
	st := s.m.sample()
	p99, waitCores = st.p99, st.waitCores
	if p99 < 0 {
		p99 = math.NaN()
	}
	if waitCores < 0 {
		waitCores = math.NaN()
	}
	return p99, waitCores
}

// agentsStall is the generator's waits for a CPU in second sec of a
// distributed run: the agent's that waited longest (Generator.Stall); a
// figure no agent sent is not measured (negative).
func agentsStall(g Generator, sec int) stall {
	p99, wait := g.Stall(sec)
	st := stall{p99: p99, waitCores: wait}
	if math.IsNaN(p99) {
		st.p99 = -1
	}
	if math.IsNaN(wait) {
		st.waitCores = -1
	}
	return st
}

package engine

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// client is one of the two ways the engine sends plain http:// requests.
type client struct {
	name string
	opts Options
}

// clients returns the lean HTTP/1.1 client and net/http.
func clients() []client {
	return []client{{"lean", Options{}}, {"net-http", Options{NetHTTPOnly: true}}}
}

// DroppedN lets the test recorder count drops by arithmetic, as the metrics sinks do.
func (r *testRecorder) DroppedN(_ int32, _ time.Duration, n int64) {
	r.mu.Lock()
	r.dropped += int(n)
	r.mu.Unlock()
}

// sent returns the requests the recorded samples stand for: each sample
// is one request plus each redirect it followed.
func (r *testRecorder) sent() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tally != nil {
		return r.tally.sent
	}
	var n int64
	for _, q := range r.reqs {
		n += 1 + int64(q.Redirects)
	}
	return n
}

// tally is what a fault run keeps of its samples: counts, one example of
// each kind, and the first sample that broke the run's invariant.
type tally struct {
	n       int
	sent    int64
	reached int64 // the requests of samples that were not still dialling as they timed out: those a server can have read
	bytes   int64 // the bytes the samples sent
	byKind  [sample.NumKinds]int
	example [sample.NumKinds]sample.Request
	check   func(*sample.Request) string // "" when the sample is as it should be
	broken  string
}

func (t *tally) add(s *sample.Request) {
	t.n++
	t.sent += 1 + int64(s.Redirects)
	t.bytes += s.Sent
	if !(s.Kind == sample.Timeout && strings.HasSuffix(s.Err, "while connecting")) {
		t.reached += 1 + int64(s.Redirects)
	}
	if s.Kind < sample.NumKinds {
		if t.byKind[s.Kind] == 0 {
			t.example[s.Kind] = *s
		}
		t.byKind[s.Kind]++
	}
	if t.broken == "" && t.check != nil {
		if msg := t.check(s); msg != "" {
			t.broken = fmt.Sprintf("%s: %+v", msg, *s)
		}
	}
}

// reached returns the requests of the samples that were not still
// dialling as they timed out (tally).
func (r *testRecorder) reached() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tally.reached
}

// sentBytes returns the bytes the recorded samples sent (tally).
func (r *testRecorder) sentBytes() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tally.bytes
}

// count returns how many samples the recorder received.
func (r *testRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tally != nil {
		return r.tally.n
	}
	return len(r.reqs)
}

// inUse is the memory the program holds: heap spans and goroutine stacks.
// inUse is the heap and stacks in use, right after a collection in its callers.
func inUse(ms *runtime.MemStats) uint64 { return ms.HeapInuse + ms.StackInuse }

// liveMemory is the heap the last garbage collection found live, plus
// goroutine stacks: what the engine keeps, not the garbage a fast machine
// makes between two collections (which failed CI with 57 MiB of it).
func liveMemory() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64()
}

// memoryPeak samples the live memory every 20ms until stop is called, and
// returns the peak above what was live at the start.
func memoryPeak() (stop func() uint64) {
	runtime.GC()
	base := liveMemory()
	peak := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, liveMemory())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak - base
	}
}

// starvation starts measuring how long the process's threads waited,
// runnable, for a CPU: what a busy host added to a run's time. The
// returned function says how long since the start (0 where it cannot be
// read, or for threads that exited).
func starvation() func() time.Duration {
	used0, asked0, ok0 := processCPU()
	return func() time.Duration {
		used, asked, ok := processCPU()
		if !ok || !ok0 {
			return 0
		}
		return max(0, (asked-used)-(asked0-used0))
	}
}

// checkLeaks fails the test if, once it and its cleanups (servers closing)
// are done, the goroutines do not come back down to their count now within
// a few seconds.
func checkLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Cleanup(func() { noLeaks(t, before) }) // registered first, so it runs last
}

func noLeaks(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before the run:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond) // polling with a bounded deadline
	}
}

// runPlan runs p and returns what was recorded and how long it took.
func runPlan(t *testing.T, p *plan.Plan, opts Options) (*testRecorder, time.Duration) {
	t.Helper()
	for i, s := range p.Scenarios {
		s.ID = int32(i)
	}
	return runPlanInto(t, p, opts, newTestRecorder())
}

// runPlanInto is runPlan with a recorder of the caller's.
func runPlanInto(t *testing.T, p *plan.Plan, opts Options, rec *testRecorder) (*testRecorder, time.Duration) {
	t.Helper()
	for i, s := range p.Scenarios {
		s.ID = int32(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	if err := New(p, rec, opts).Run(ctx); err != nil {
		t.Fatal(err)
	}
	return rec, time.Since(start)
}

// kindsIn fails unless every sample is of one of the kinds.
func kindsIn(t *testing.T, rec *testRecorder, kinds ...sample.Kind) {
	t.Helper()
	samples := rec.reqs
	if rec.tally != nil {
		for k, n := range rec.tally.byKind {
			if n > 0 {
				samples = append(samples, rec.tally.example[k])
			}
		}
	}
	for _, q := range samples {
		ok := false
		for _, k := range kinds {
			ok = ok || q.Kind == k
		}
		if !ok {
			t.Fatalf("a sample of kind %v (%s), want one of %v: %+v", q.Kind, q.Err, kinds, q)
		}
	}
}

// waitFor polls cond for up to a few seconds.
func waitFor(cond func() bool) bool { return waitForWithin(3*time.Second, cond) }

// waitForWithin is waitFor with its own bound, for a condition that needs
// more work than a few requests (thousands of VUs' starts on a busy host).
func waitForWithin(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond) // polling with a bounded deadline
	}
	return true
}

// hdr is a step header with a literal value.
func hdr(name, value string) plan.Header {
	return plan.Header{Name: name, Value: tmpl.Literal(value)}
}

// kindNames lists the kinds of the samples, for messages.
func (r *testRecorder) kindNames() string {
	var b strings.Builder
	for k, n := range r.kinds() {
		b.WriteString(k.String())
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(' ')
	}
	return b.String()
}

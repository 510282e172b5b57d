package spans

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

type nopSink struct{}

func (nopSink) Sink(int) sample.Sink                                     { return nopSink{} }
func (nopSink) Request(*sample.Request)                                  {}
func (nopSink) Check(int32, time.Duration, bool)                         {}
func (nopSink) CheckAnswer(int32, time.Duration, bool, sample.CheckRead) {}
func (nopSink) Iteration(int32, time.Duration, time.Duration)            {}
func (nopSink) Dropped(int32, time.Duration)                             {}
func (nopSink) Offered(int32, time.Duration, int64)                      {}
func (nopSink) Group(int32, time.Duration, time.Duration)                {}
func (nopSink) Add(int32, time.Duration, float64)                        {}
func (nopSink) Lag(int32, time.Duration, time.Duration)                  {}
func (nopSink) NotSent(int32, time.Duration, string)                     {}

func id(n int) sample.TraceID {
	var t sample.TraceID
	t[14], t[15] = byte(n>>8), byte(n)
	t[0] = 1
	return t
}

// TestKeeperKeepsTheSlowestAndTheFirstFailures offers 1,000 requests over
// 4 VUs (4 shards) and checks the kept ids against a plain count.
func TestKeeperKeepsTheSlowestAndTheFirstFailures(t *testing.T) {
	k := NewKeeper(2, 4, 5, 100)
	rec := k.Wrap(nopSink{})
	sinks := []sample.Sink{rec.Sink(0), rec.Sink(1), rec.Sink(2), rec.Sink(3)}
	sampled, failedEp1 := 0, 0
	for i := range 1000 {
		r := sample.Request{Endpoint: int32(i % 2), Trace: id(i), Sampled: i%3 == 0,
			Duration: time.Duration((i*7919)%1000) * time.Millisecond, End: time.Duration(i) * 10 * time.Millisecond}
		if i%2 == 1 && i%5 == 0 {
			r.Kind, r.Status, r.Err = sample.HTTP5xx, 503, "503 Service Unavailable"
			failedEp1++
		}
		if r.Sampled {
			sampled++
		}
		sinks[i%4].Request(&r)
	}
	slow := k.Slowest()
	for e := range 2 {
		// the expected: the 5 longest durations among sampled requests of endpoint e
		var want []time.Duration
		for i := e; i < 1000; i += 2 {
			if i%3 == 0 {
				want = append(want, time.Duration((i*7919)%1000)*time.Millisecond)
			}
		}
		sortDesc(want)
		if len(slow[e]) != 5 {
			t.Fatalf("endpoint %d: %d kept, want 5", e, len(slow[e]))
		}
		for j, kept := range slow[e] {
			if kept.Duration != want[j] || !kept.Sampled || kept.Endpoint != int32(e) {
				t.Errorf("endpoint %d, slowest #%d: %+v, want duration %v", e, j, kept, want[j])
			}
		}
	}
	failed := k.Failed()
	if len(failed[0]) != 0 || len(failed[1]) != 5 || failedEp1 < 5 {
		t.Fatalf("failed kept: %d and %d, want 0 and 5 (of %d)", len(failed[0]), len(failed[1]), failedEp1)
	}
	for j, f := range failed[1] {
		if !f.Failed || f.Status != 503 || (j > 0 && f.Sec < failed[1][j-1].Sec) {
			t.Errorf("failure %d: %+v", j, f)
		}
	}
	reqs, dropped := k.Requests()
	if len(reqs)+dropped != sampled || len(reqs) != 100 {
		t.Errorf("%d requests kept for joining and %d dropped, want 100 and %d in all", len(reqs), dropped, sampled)
	}
}

func sortDesc(d []time.Duration) {
	for i := range d {
		for j := i + 1; j < len(d); j++ {
			if d[j] > d[i] {
				d[i], d[j] = d[j], d[i]
			}
		}
	}
}

// TestKeeperDoesNotAllocate: offering a request, sampled or not, failed or
// not, allocates nothing once the keeper exists.
func TestKeeperDoesNotAllocate(t *testing.T) {
	k := NewKeeper(1, 1, 10, 1000)
	s := k.Wrap(nopSink{}).Sink(0)
	i := 0
	r := &sample.Request{} // the engine's sample lives in its VU, as this one outside the loop
	n := testing.AllocsPerRun(500, func() {
		i++
		*r = sample.Request{Trace: id(i), Sampled: i%2 == 0, Duration: time.Duration(i)}
		if i%7 == 0 {
			r.Kind = sample.Timeout
		}
		s.Request(r)
	})
	if n != 0 {
		t.Fatalf("%v allocations per request", n)
	}
}

func BenchmarkKeeperOffer(b *testing.B) {
	k := NewKeeper(4, 1, 10, 0)
	s := k.Wrap(nopSink{}).Sink(0)
	r := sample.Request{Trace: id(1)}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Sampled = i%10 == 0
		r.Duration = time.Duration(i % 1000)
		s.Request(&r)
	}
}

// countingSink counts drops, one by one and in batches.
type countingSink struct {
	nopSink
	drops int64
}

func (c *countingSink) Sink(int) sample.Sink                       { return c }
func (c *countingSink) Dropped(int32, time.Duration)               { c.drops++ }
func (c *countingSink) DroppedN(_ int32, _ time.Duration, n int64) { c.drops += n }

// TestABatchOfDropsPassesTheKeeperWhole: the engine counts a scheduler far
// behind by arithmetic; a batch larger than sample.MaxDropCalls must reach
// the recorder whole through the keeper's sink.
func TestABatchOfDropsPassesTheKeeperWhole(t *testing.T) {
	c := &countingSink{}
	s := NewKeeper(1, 1, 1, 10).Wrap(c).Sink(0)
	dc, ok := s.(sample.DropCounter)
	if !ok {
		t.Fatal("the keeper's sink does not count drops in batches")
	}
	const n = 3 * sample.MaxDropCalls
	dc.DroppedN(0, time.Second, n)
	if c.drops != n {
		t.Fatalf("%d drops recorded, want %d", c.drops, n)
	}
}

// TestKeeperTellsTheRunsTraces: Endpoint finds exactly the sampled requests
// kept for joining, with their endpoint, whichever VU recorded them.
func TestKeeperTellsTheRunsTraces(t *testing.T) {
	k := NewKeeper(3, 4, 5, 600)
	rec := k.Wrap(nopSink{})
	for i := range 2000 {
		r := sample.Request{Endpoint: int32(i % 3), Trace: id(i), Sampled: i%2 == 0}
		rec.Sink(i / 2 % 4).Request(&r)
	}
	joined, beyond := k.Requests()
	if len(joined) != 600 || beyond != 400 {
		t.Fatalf("%d joined, %d beyond; want 600 and 400", len(joined), beyond)
	}
	in := map[sample.TraceID]bool{}
	for _, r := range joined {
		in[r.Trace] = true
	}
	for i := range 2000 {
		e, ok := k.Endpoint(id(i))
		if ok != in[id(i)] || (ok && e != int32(i%3)) {
			t.Errorf("request %d (sampled %v, joined %v): Endpoint = %d, %v", i, i%2 == 0, in[id(i)], e, ok)
		}
	}
	if _, ok := NewKeeper(1, 1, 5, 0).Endpoint(id(1)); ok {
		t.Error("a keeper that joins nothing knows a trace")
	}
}

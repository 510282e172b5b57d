package spans

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// Kept is one request whose trace id the run keeps: one of an endpoint's
// slowest sampled requests, or a failed one.
type Kept struct {
	Endpoint int32
	Trace    sample.TraceID
	Sampled  bool
	Sec      int           // the second of the run it ended in
	Duration time.Duration // as loadlens measured it, from the intended start
	Status   int
	Failed   bool
	Err      string // the failure's message; "" for a success
}

// Request is one sampled request, for joining with its spans.
type Request struct {
	Trace    sample.TraceID
	Endpoint int32
	Sec      int
	Duration time.Duration
	Failed   bool
}

// Keeper keeps, per endpoint, the trace ids of the slowest sampled requests
// and of the first failed ones, and (when joining) every sampled request up
// to a bound. Like metrics.Recorder it is sharded by VU, and each shard's
// storage is made up front, so recording allocates nothing.
type Keeper struct {
	shards []*keepShard
	keep   int
	index  []traceIndex // the joined requests' endpoints by trace id, for the receiver; nil when not joining
	room   int          // entries each index shard holds at most: as made, so adding never allocates
}

// traceIndex is one shard, by trace id, of the joined requests' endpoints:
// a span that arrives tells its run's trace from a stranger's by it.
type traceIndex struct {
	mu sync.Mutex
	m  map[sample.TraceID]int32
	_  [48]byte // keeps the shards' locks off each other's cache lines
}

// indexShards is how many locks the trace index is split over.
const indexShards = 16

type keepShard struct {
	mu      sync.Mutex
	slow    []slowHeap    // per endpoint, a min-heap of its slowest sampled requests
	failed  [][]Kept      // per endpoint, its first failures
	full    []atomic.Bool // per endpoint: its failures are all kept, so an unsampled failure needs no lock
	joins   []Request     // sampled requests, in the order they ended
	index   *Keeper       // indexes the joins by trace id; nil when not joining
	dropped int           // sampled requests not kept for joining: the bound was reached
	_       [64]byte      // keeps shards' locks off each other's cache lines
}

// NewKeeper returns a Keeper for a run of endpoints endpoints and shards
// shards, keeping keep slowest and keep failed requests per endpoint, and up
// to join sampled requests in all for joining with spans (0: none).
func NewKeeper(endpoints, shards, keep, join int) *Keeper {
	shards = max(shards, 1)
	k := &Keeper{keep: keep, shards: make([]*keepShard, shards)}
	for i := range k.shards {
		s := &keepShard{slow: make([]slowHeap, endpoints), failed: make([][]Kept, endpoints), full: make([]atomic.Bool, endpoints)}
		for e := range endpoints {
			s.slow[e] = make(slowHeap, 0, keep)
			s.failed[e] = make([]Kept, 0, keep)
			s.full[e].Store(keep == 0)
		}
		if join > 0 {
			s.joins = make([]Request, 0, (join+shards-1)/shards)
			s.index = k
		}
		k.shards[i] = s
	}
	if join > 0 {
		// Made whole up front, with room for random ids' uneven spread over
		// the shards: adding to it never allocates while the run is measured.
		k.room = join/indexShards + join/(4*indexShards) + 64
		k.index = make([]traceIndex, indexShards)
		for i := range k.index {
			k.index[i].m = make(map[sample.TraceID]int32, k.room)
		}
	}
	return k
}

// Endpoint returns the endpoint of the joined request whose trace id is id,
// and whether there is one: the run's own traces, as far as they are kept
// for joining. Any goroutine may call it.
func (k *Keeper) Endpoint(id sample.TraceID) (int32, bool) {
	if k.index == nil {
		return 0, false
	}
	x := &k.index[id[15]%indexShards]
	x.mu.Lock()
	e, ok := x.m[id]
	x.mu.Unlock()
	return e, ok
}

// indexed records that the joined request of trace id went to endpoint e.
func (k *Keeper) indexed(id sample.TraceID, e int32) {
	x := &k.index[id[15]%indexShards]
	x.mu.Lock()
	if len(x.m) < k.room {
		x.m[id] = e
	}
	x.mu.Unlock()
}

// Wrap returns a recorder that records into rec and offers every request
// to the keeper.
func (k *Keeper) Wrap(rec sample.Recorder) sample.Recorder { return keepRecorder{rec, k} }

type keepRecorder struct {
	rec sample.Recorder
	k   *Keeper
}

func (r keepRecorder) Sink(vu int) sample.Sink {
	n := len(r.k.shards)
	return &keepSink{Sink: r.rec.Sink(vu), s: r.k.shards[((vu%n)+n)%n]}
}

// keepSink is a VU's sink: the recorder's, with requests offered to a shard.
type keepSink struct {
	sample.Sink
	s *keepShard
}

func (t *keepSink) Request(r *sample.Request) {
	t.Sink.Request(r)
	t.s.offer(r)
}

// RequestIteration records both in one call where the recorder's sink can.
func (t *keepSink) RequestIteration(r *sample.Request, scenario int32, d time.Duration) {
	if b, ok := t.Sink.(sample.LastRequestSink); ok {
		b.RequestIteration(r, scenario, d)
	} else {
		t.Sink.Request(r)
		t.Sink.Iteration(scenario, r.End, d)
	}
	t.s.offer(r)
}

// offer considers one request; the common case, an unsampled success,
// returns at once without a lock.
func (s *keepShard) offer(r *sample.Request) {
	failed := r.Kind != sample.OK
	if (!r.Sampled && !failed) || r.Trace.IsZero() || int(r.Endpoint) >= len(s.slow) || (!r.Sampled && s.full[r.Endpoint].Load()) {
		return
	}
	sec := 0
	if r.End > 0 {
		sec = int(r.End / time.Second)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := r.Endpoint
	if failed && len(s.failed[e]) < cap(s.failed[e]) {
		s.failed[e] = append(s.failed[e], Kept{Endpoint: e, Trace: r.Trace, Sampled: r.Sampled, Sec: sec,
			Duration: r.Duration, Status: r.Status, Failed: true, Err: r.Err})
		if len(s.failed[e]) == cap(s.failed[e]) {
			s.full[e].Store(true)
		}
	}
	if !r.Sampled {
		return
	}
	if cap(s.joins) > 0 {
		if len(s.joins) < cap(s.joins) {
			s.joins = append(s.joins, Request{Trace: r.Trace, Endpoint: e, Sec: sec, Duration: r.Duration, Failed: failed})
			s.index.indexed(r.Trace, e)
		} else {
			s.dropped++
		}
	}
	h := &s.slow[e]
	if cap(*h) == 0 {
		return
	}
	k := Kept{Endpoint: e, Trace: r.Trace, Sampled: true, Sec: sec, Duration: r.Duration, Status: r.Status, Failed: failed, Err: r.Err}
	if len(*h) == cap(*h) {
		if (*h)[0].Duration >= r.Duration {
			return
		}
		(*h)[0] = k
		h.down(0)
		return
	}
	*h = append(*h, k)
	h.up(len(*h) - 1)
}

// Slowest returns, per endpoint, its slowest sampled requests, slowest first.
func (k *Keeper) Slowest() [][]Kept {
	out := make([][]Kept, len(k.shards[0].slow))
	for _, s := range k.shards {
		s.mu.Lock()
		for e := range s.slow {
			out[e] = append(out[e], s.slow[e]...)
		}
		s.mu.Unlock()
	}
	for e := range out {
		sort.Slice(out[e], func(i, j int) bool { return out[e][i].Duration > out[e][j].Duration })
		if len(out[e]) > k.keep {
			out[e] = out[e][:k.keep]
		}
	}
	return out
}

// Failed returns, per endpoint, its first failed requests, earliest first.
func (k *Keeper) Failed() [][]Kept {
	out := make([][]Kept, len(k.shards[0].failed))
	for _, s := range k.shards {
		s.mu.Lock()
		for e := range s.failed {
			out[e] = append(out[e], s.failed[e]...)
		}
		s.mu.Unlock()
	}
	for e := range out {
		sort.SliceStable(out[e], func(i, j int) bool { return out[e][i].Sec < out[e][j].Sec })
		if len(out[e]) > k.keep {
			out[e] = out[e][:k.keep]
		}
	}
	return out
}

// Requests returns the sampled requests kept for joining, and how many
// more there were beyond the bound.
func (k *Keeper) Requests() ([]Request, int) {
	var out []Request
	dropped := 0
	for _, s := range k.shards {
		s.mu.Lock()
		out = append(out, s.joins...)
		dropped += s.dropped
		s.mu.Unlock()
	}
	return out, dropped
}

// slowHeap is a min-heap by duration: its root is the fastest kept. It is
// written out rather than container/heap, whose any boxes every item.
type slowHeap []Kept

func (h slowHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h[p].Duration <= h[i].Duration {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (h slowHeap) down(i int) {
	for {
		l, m := 2*i+1, i
		if l < len(h) && h[l].Duration < h[m].Duration {
			m = l
		}
		if r := l + 1; r < len(h) && h[r].Duration < h[m].Duration {
			m = r
		}
		if m == i {
			return
		}
		h[m], h[i] = h[i], h[m]
		i = m
	}
}

// Stats counts what a run's trace join saw.
type Stats struct {
	Receiver bool // a receiver ran
	Sampled  int  // sampled requests kept for joining
	Unjoined int  // of those, requests no span came for
	Beyond   int  // sampled requests beyond the join's bound
	Spans    int  // spans received and kept
	Dropped  int  // spans beyond the receiver's bound
	Foreign  int  // spans of traces not the run's: counted and dropped
	Rejected int  // export requests the receiver refused
	Exports  int  // export requests accepted
	// Impossible counts spans dropped for their times (an end before the
	// start, a start, end or length far outside the run).
	Impossible int
}

// DroppedN forwards a batch of dropped iterations whole when the
// recorder's sink counts them so: passed one by one, past
// sample.MaxDropCalls of a batch they would be lost.
func (t *keepSink) DroppedN(scenario int32, at time.Duration, n int64) {
	if dc, ok := t.Sink.(sample.DropCounter); ok {
		dc.DroppedN(scenario, at, n)
		return
	}
	for i := int64(0); i < min(n, sample.MaxDropCalls); i++ {
		t.Sink.Dropped(scenario, at)
	}
}

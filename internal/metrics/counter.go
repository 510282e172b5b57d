package metrics

import (
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// Counter is a Recorder that only counts requests and failures: what is
// left when per-second bookkeeping is switched off, to measure its cost.
type Counter struct {
	shards []counterShard
}

// counterShard is padded to its own cache line so VUs on different shards
// never contend.
type counterShard struct {
	requests, failed, dropped atomic.Int64
	_                         [40]byte
}

// NewCounter returns a counting recorder with the given number of shards.
func NewCounter(shards int) *Counter {
	return &Counter{shards: make([]counterShard, max(shards, 1))}
}

// Sink returns the shard a VU counts into.
func (c *Counter) Sink(vu int) sample.Sink {
	return &c.shards[(vu%len(c.shards)+len(c.shards))%len(c.shards)]
}

// Totals returns the requests, failed requests and dropped iterations counted.
func (c *Counter) Totals() (requests, failed, dropped int64) {
	for i := range c.shards {
		requests += c.shards[i].requests.Load()
		failed += c.shards[i].failed.Load()
		dropped += c.shards[i].dropped.Load()
	}
	return
}

// Request counts a request and whether it failed.
func (s *counterShard) Request(r *sample.Request) {
	s.requests.Add(1)
	if r.Kind != sample.OK {
		s.failed.Add(1)
	}
}

// NotSent records nothing: the counter counts requests, and none was sent.
func (s *counterShard) NotSent(int32, time.Duration, string) {}

// Dropped counts a dropped iteration.
func (s *counterShard) Dropped(int32, time.Duration) { s.dropped.Add(1) }

// Offered is not counted.
func (s *counterShard) Offered(int32, time.Duration, int64) {}

// Check is not counted.
func (s *counterShard) Check(int32, time.Duration, bool) {}

// CheckAnswer is not counted.
func (s *counterShard) CheckAnswer(int32, time.Duration, bool, sample.CheckRead) {}

// Iteration is not counted.
func (s *counterShard) Iteration(int32, time.Duration, time.Duration) {}

// Group is not counted.
func (s *counterShard) Group(int32, time.Duration, time.Duration) {}

// Lag is not counted.
func (s *counterShard) Lag(int32, time.Duration, time.Duration) {}

// Add is not counted.
func (s *counterShard) Add(int32, time.Duration, float64) {}

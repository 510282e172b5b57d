package demo

import (
	"container/list"
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// lruShards spreads the LRU over independent locks so concurrent hits on
// different keys do not queue behind one mutex.
const lruShards = 16

// lru is the in-process look-aside cache: a sharded LRU with a TTL, and the
// counters the coupon event keeps in its cache.
type lru struct {
	seed   maphash.Seed
	ttl    time.Duration
	now    func() time.Time // the clock, replaceable in tests
	shards [lruShards]lruShard

	countersMu sync.RWMutex
	counters   map[string]*atomic.Int64
}

type lruShard struct {
	mu    sync.Mutex
	max   int
	items map[string]*list.Element
	order list.List // front: most recently used
}

type lruEntry struct {
	key     string
	value   []byte
	expires time.Time
}

// newLRU returns an LRU holding about size entries, each for ttl.
func newLRU(size int, ttl time.Duration) *lru {
	c := &lru{seed: maphash.MakeSeed(), ttl: ttl, now: time.Now, counters: map[string]*atomic.Int64{}}
	per := max(1, size/lruShards)
	for i := range c.shards {
		c.shards[i].max = per
		c.shards[i].items = make(map[string]*list.Element, per)
	}
	return c
}

func (c *lru) shard(key []byte) *lruShard {
	return &c.shards[maphash.Bytes(c.seed, key)%lruShards]
}

// get returns the value stored under key, unless it expired. The returned
// slice is shared and must not be modified.
func (c *lru) get(_ context.Context, key []byte) ([]byte, bool, error) {
	s := c.shard(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.items[string(key)]
	if !ok {
		return nil, false, nil
	}
	e := el.Value.(*lruEntry)
	if c.now().After(e.expires) {
		s.order.Remove(el)
		delete(s.items, e.key)
		return nil, false, nil
	}
	s.order.MoveToFront(el)
	return e.value, true, nil
}

// set stores value under key, evicting the least recently used entry when full.
func (c *lru) set(_ context.Context, key, value []byte) error {
	s := c.shard(key)
	expires := c.now().Add(c.ttl)
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[string(key)]; ok {
		e := el.Value.(*lruEntry)
		e.value, e.expires = value, expires
		s.order.MoveToFront(el)
		return nil
	}
	if s.order.Len() >= s.max {
		oldest := s.order.Back()
		s.order.Remove(oldest)
		delete(s.items, oldest.Value.(*lruEntry).key)
	}
	k := string(key)
	s.items[k] = s.order.PushFront(&lruEntry{key: k, value: value, expires: expires})
	return nil
}

// counter returns the counter's value; an unset counter is 0.
func (c *lru) counter(_ context.Context, key string) (int64, error) {
	return c.counterRef(key).Load(), nil
}

// setCounter sets the counter to v.
func (c *lru) setCounter(_ context.Context, key string, v int64) error {
	c.counterRef(key).Store(v)
	return nil
}

// addCounter adds delta atomically and returns the new value, like INCRBY.
func (c *lru) addCounter(_ context.Context, key string, delta int64) (int64, error) {
	return c.counterRef(key).Add(delta), nil
}

func (c *lru) counterRef(key string) *atomic.Int64 {
	c.countersMu.RLock()
	n, ok := c.counters[key]
	c.countersMu.RUnlock()
	if ok {
		return n
	}
	c.countersMu.Lock()
	defer c.countersMu.Unlock()
	if n, ok = c.counters[key]; !ok {
		n = &atomic.Int64{}
		c.counters[key] = n
	}
	return n
}

func (c *lru) close() error { return nil }

// name is the cache's kind, for logs and metrics.
func (c *lru) name() string { return "lru" }

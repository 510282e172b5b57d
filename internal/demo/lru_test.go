package demo

import (
	"context"
	"testing"
	"time"
)

func TestLRU(t *testing.T) {
	ctx := context.Background()
	clock := time.Unix(1000, 0)
	c := newLRU(lruShards, time.Minute) // one entry per shard
	c.now = func() time.Time { return clock }
	key := func(s string) []byte { return []byte(s) }
	c.set(ctx, key("a"), []byte("1"))
	cases := []struct {
		name    string
		step    func()
		key     string
		wantHit bool
		want    string
	}{
		{"a stored value", func() {}, "a", true, "1"},
		{"a key never stored", func() {}, "b", false, ""},
		{"an overwritten value", func() { c.set(ctx, key("a"), []byte("2")) }, "a", true, "2"},
		{"before the TTL", func() { c.set(ctx, key("a"), []byte("3")); clock = clock.Add(59 * time.Second) }, "a", true, "3"},
		{"after the TTL", func() { clock = clock.Add(2 * time.Second) }, "a", false, ""},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			cs.step()
			v, hit, err := c.get(ctx, key(cs.key))
			if err != nil || hit != cs.wantHit || string(v) != cs.want {
				t.Fatalf("get(%q) = %q, %v, %v; want %q, %v", cs.key, v, hit, err, cs.want, cs.wantHit)
			}
		})
	}
}

func TestLRUEvictsTheLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	c := newLRU(lruShards*2, time.Minute)
	s := &c.shards[0]
	// Find three keys of one shard, whose capacity is two.
	var keys [][]byte
	for i := 0; len(keys) < 3 && i < 10_000; i++ {
		k := []byte{byte(i), byte(i >> 8)}
		if c.shard(k) == s {
			keys = append(keys, k)
		}
	}
	if len(keys) < 3 {
		t.Fatal("found no three keys of one shard")
	}
	c.set(ctx, keys[0], []byte("0"))
	c.set(ctx, keys[1], []byte("1"))
	c.get(ctx, keys[0]) // keys[1] is now the least recently used
	c.set(ctx, keys[2], []byte("2"))
	cases := []struct {
		name    string
		key     []byte
		wantHit bool
	}{
		{"recently read", keys[0], true},
		{"least recently used", keys[1], false},
		{"just stored", keys[2], true},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			if _, hit, _ := c.get(ctx, cs.key); hit != cs.wantHit {
				t.Fatalf("hit %v; want %v", hit, cs.wantHit)
			}
		})
	}
}

func TestLRUCounters(t *testing.T) {
	ctx := context.Background()
	c := newLRU(16, time.Minute)
	cases := []struct {
		name string
		op   func() (int64, error)
		want int64
	}{
		{"unset is zero", func() (int64, error) { return c.counter(ctx, "n") }, 0},
		{"set", func() (int64, error) { return 5, c.setCounter(ctx, "n", 5) }, 5},
		{"add returns the new value", func() (int64, error) { return c.addCounter(ctx, "n", -7) }, -2},
		{"read back", func() (int64, error) { return c.counter(ctx, "n") }, -2},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			got, err := cs.op()
			if err != nil || got != cs.want {
				t.Fatalf("%d, %v; want %d", got, err, cs.want)
			}
		})
	}
}

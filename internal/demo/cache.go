package demo

import "context"

// cache is the shop's look-aside cache and the home of the coupon counter:
// an in-process LRU by default, Redis with --redis.
type cache interface {
	get(ctx context.Context, key []byte) ([]byte, bool, error)
	set(ctx context.Context, key, value []byte) error
	counter(ctx context.Context, key string) (int64, error)
	setCounter(ctx context.Context, key string, v int64) error
	addCounter(ctx context.Context, key string, delta int64) (int64, error)
	close() error
	name() string
}

// openCache returns Redis when an address is given, else an in-process LRU.
func openCache(ctx context.Context, o Options) (cache, error) {
	if o.Redis == "" {
		return newLRU(o.CacheSize, o.CacheTTL), nil
	}
	return openRedis(ctx, o)
}

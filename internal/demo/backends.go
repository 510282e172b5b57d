//go:build demobackends

package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// backendsBuilt is nil: this binary has the Redis client (built with
// -tags demobackends).
func backendsBuilt(Options) error { return nil }

// openRedis connects the shop's cache to the Redis server at o.Redis.
func openRedis(ctx context.Context, o Options) (cache, error) {
	c := &redisCache{ttl: o.CacheTTL, rdb: redis.NewClient(&redis.Options{
		Addr: o.Redis, PoolSize: 64, DialTimeout: 2 * time.Second,
		// The shop reports no client identity: older servers reject CLIENT SETINFO.
		DisableIdentity: true,
	})}
	if err := c.rdb.Ping(ctx).Err(); err != nil {
		c.rdb.Close()
		return nil, fmt.Errorf("demo: Redis at %s: %w", o.Redis, err)
	}
	return c, nil
}

// redisCache is the cache on a Redis server; keys start with "loadlens-demo:".
type redisCache struct {
	rdb *redis.Client
	ttl time.Duration
}

const redisPrefix = "loadlens-demo:"

func (c *redisCache) get(ctx context.Context, key []byte) ([]byte, bool, error) {
	v, err := c.rdb.Get(ctx, redisPrefix+string(key)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

func (c *redisCache) set(ctx context.Context, key, value []byte) error {
	return c.rdb.Set(ctx, redisPrefix+string(key), value, c.ttl).Err()
}

func (c *redisCache) counter(ctx context.Context, key string) (int64, error) {
	v, err := c.rdb.Get(ctx, redisPrefix+key).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return v, err
}

func (c *redisCache) setCounter(ctx context.Context, key string, v int64) error {
	return c.rdb.Set(ctx, redisPrefix+key, v, 0).Err()
}

func (c *redisCache) addCounter(ctx context.Context, key string, delta int64) (int64, error) {
	return c.rdb.IncrBy(ctx, redisPrefix+key, delta).Result()
}

func (c *redisCache) close() error { return c.rdb.Close() }

func (c *redisCache) name() string { return "redis" }

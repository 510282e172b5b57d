//go:build !demobackends

package demo

import (
	"context"
	"fmt"
)

// backendsBuilt refuses --redis: its client (go-redis, about 11 MB of
// binary) is only built in with -tags demobackends, so that the binary
// every agent image ships does not carry a client only the demo uses. The
// built-in demo needs none: it caches in process. (--postgres stays: its
// driver costs 70 kB on the pgx that run history links anyway.)
func backendsBuilt(o Options) error {
	if o.Redis == "" {
		return nil
	}
	return fmt.Errorf("demo: --redis (Redis) needs the demo's Redis client, which this loadlens was built without; " +
		"build it with it: go build -tags demobackends ./cmd/loadlens (or go run -tags demobackends ./cmd/loadlens demo …)")
}

// openRedis is not reached: backendsBuilt refuses a Redis address first.
func openRedis(context.Context, Options) (cache, error) {
	return nil, backendsBuilt(Options{Redis: "redis"})
}

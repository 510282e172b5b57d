//go:build !demobackends

package demo

import (
	"context"
	"fmt"
)

// backendsBuilt refuses --postgres and --redis: their clients (pgx and
// go-redis, about 15 MB of binary) are only built in with -tags
// demobackends, so that the binary every agent image ships does not carry
// the demo shop's database clients. The built-in demo needs neither: it
// runs on embedded SQLite and an in-process cache.
func backendsBuilt(o Options) error {
	var flag string
	switch {
	case o.Postgres != "":
		flag = "--postgres (PostgreSQL)"
	case o.Redis != "":
		flag = "--redis (Redis)"
	default:
		return nil
	}
	return fmt.Errorf("demo: %s needs the demo's database clients, which this loadlens was built without; "+
		"build it with them: go build -tags demobackends ./cmd/loadlens (or go run -tags demobackends ./cmd/loadlens demo …)", flag)
}

// openRedis is not reached: backendsBuilt refuses a Redis address first.
func openRedis(context.Context, Options) (cache, error) {
	return nil, backendsBuilt(Options{Redis: "redis"})
}

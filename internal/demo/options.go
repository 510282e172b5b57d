package demo

import (
	"fmt"
	"strings"
	"time"
)

// VariantHeader is the request header that picks a variant for one request.
const VariantHeader = "X-Variant"

// Variant selects the naive or the improved implementation of an endpoint.
type Variant uint8

// The variants. Naive and Improved apply to every endpoint; the NaiveTx,
// NaiveLock and NaiveRace variants isolate one of the coupon bugs and behave
// like Naive everywhere else.
const (
	Naive     Variant = iota + 1 // every endpoint's naive version; coupons: transaction before the cache and a lost-update race
	Improved                     // every endpoint's fixed version
	NaiveTx                      // coupons: transaction opened before the cache lookup (pool exhaustion), otherwise correct
	NaiveLock                    // coupons: one global lock serialises issuing
	NaiveRace                    // coupons: read remaining, wait, write: over-issues under concurrency
)

var variantNames = [...]string{Naive: "naive", Improved: "improved", NaiveTx: "naive-tx", NaiveLock: "naive-lock", NaiveRace: "naive-race"}

// String returns the variant's name as written in the X-Variant header.
func (v Variant) String() string {
	if v.valid() {
		return variantNames[v]
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

func (v Variant) valid() bool { return int(v) < len(variantNames) && variantNames[v] != "" }

// improved tells whether an endpoint with only a naive and an improved
// version should run its improved one.
func (v Variant) improved() bool { return v == Improved }

// ParseVariant reads a variant name: naive, improved, naive-tx, naive-lock or naive-race.
func ParseVariant(s string) (Variant, error) {
	for v, name := range variantNames {
		if name != "" && strings.EqualFold(s, name) {
			return Variant(v), nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q: want one of naive, improved, naive-tx, naive-lock, naive-race", s)
}

// Options configure a demo shop. The zero value is a usable shop on a free
// port with embedded SQLite and the defaults below.
type Options struct {
	Addr           string                           // listen address; "" picks a free port on 127.0.0.1
	DefaultVariant Variant                          // for requests without an X-Variant header; 0 means Naive
	PoolSize       int                              // the DB pool's maximum open connections; default 10
	PoolTimeout    time.Duration                    // how long a request waits for a pooled connection before a 503; default 2s
	Postgres       string                           // a PostgreSQL DSN; "" uses embedded SQLite
	SQLitePath     string                           // the SQLite file; "" is a temporary file removed by Close
	Redis          string                           // a Redis address (host:port) for the cache; "" uses an in-process LRU
	Coupons        int64                            // coupons in the time-deal event at start; default 10000
	Rows           int                              // feed posts seeded at start when the feed is empty; default 20000
	Apps           int                              // apps in the store; default 2000
	Reviews        int                              // app reviews, spread over the apps; default 80000
	Products       int                              // products; default 10000 (each with 5 reviews)
	CacheSize      int                              // in-process LRU entries; default 50000
	CacheTTL       time.Duration                    // how long a cached entry lives; default 1m
	CacheDelay     time.Duration                    // added to each cache call on the coupon path: a cache slow under load; default 10ms, negative for none
	RefreshEvery   time.Duration                    // how often the precomputed first-page table is rebuilt; default 30s
	QueueWorkers   int                              // workers draining the coupon queue; default 2
	Logf           func(format string, args ...any) // where background failures are reported; nil discards them
	OTLPEndpoint   string                           // export spans over OTLP/HTTP to this base URL (as OTEL_EXPORTER_OTLP_ENDPOINT); "" exports none
	ServiceName    string                           // the spans' service.name; default loadlens-demo-shop
}

// withDefaults fills unset options and rejects impossible ones.
func (o Options) withDefaults() (Options, error) {
	setInt := func(p *int, def int) {
		if *p == 0 {
			*p = def
		}
	}
	setDur := func(p *time.Duration, def time.Duration) {
		if *p == 0 {
			*p = def
		}
	}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.DefaultVariant == 0 {
		o.DefaultVariant = Naive
	}
	setInt(&o.PoolSize, 10)
	setDur(&o.PoolTimeout, 2*time.Second)
	if o.Coupons == 0 {
		o.Coupons = 10000
	}
	setInt(&o.Rows, 20000)
	setInt(&o.Apps, 2000)
	setInt(&o.Reviews, 80000)
	setInt(&o.Products, 10000)
	setInt(&o.CacheSize, 50000)
	setDur(&o.CacheTTL, time.Minute)
	if o.ServiceName == "" {
		o.ServiceName = "loadlens-demo-shop"
	}
	setDur(&o.CacheDelay, 10*time.Millisecond)
	if o.CacheDelay < 0 {
		o.CacheDelay = 0
	}
	setDur(&o.RefreshEvery, 30*time.Second)
	setInt(&o.QueueWorkers, 2)
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if !o.DefaultVariant.valid() {
		return o, fmt.Errorf("demo options: unknown default variant %d", o.DefaultVariant)
	}
	for _, c := range []struct {
		name string
		v    int64
	}{
		{"pool size", int64(o.PoolSize)}, {"coupons", o.Coupons}, {"rows", int64(o.Rows)}, {"apps", int64(o.Apps)},
		{"reviews", int64(o.Reviews)}, {"products", int64(o.Products)}, {"cache size", int64(o.CacheSize)},
		{"queue workers", int64(o.QueueWorkers)}, {"pool timeout", int64(o.PoolTimeout)},
		{"cache TTL", int64(o.CacheTTL)}, {"refresh interval", int64(o.RefreshEvery)},
	} {
		if c.v < 0 {
			return o, fmt.Errorf("demo options: %s is %d; it must not be negative", c.name, c.v)
		}
	}
	if o.Postgres != "" && o.SQLitePath != "" {
		return o, fmt.Errorf("demo options: give a PostgreSQL DSN or an SQLite path, not both")
	}
	return o, backendsBuilt(o)
}

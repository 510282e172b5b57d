// Package demo is loadlens's built-in target: a small shop service on
// 127.0.0.1 whose endpoints reproduce the field reports' bottlenecks, each in
// a naive and an improved variant, with its own Prometheus /metrics, so the
// tool can be tried, tested and demonstrated without any other software.
package demo

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Categories are the app-store categories the first page lists.
var Categories = []string{"GAME", "EDU", "SOCIAL", "MUSIC", "TOOLS"}

// shop is the demo service: its database, cache and counters.
type shop struct {
	opt     Options
	db      *shopDB
	trace   *tracing // nil when the shop exports no spans
	cache   cache
	stats   httpStats
	counts  shopCounters
	tokens  sync.Map // login token → user
	coupons *couponEvent
	rank    rankTable
	feed    feedCount
	start   time.Time
	echo    [len(variantNames)][]string // X-Variant response header values, shared read-only
}

// shopCounters are the shop's own counters for /metrics.
type shopCounters struct {
	cacheHits, cacheMisses [cacheKinds]atomic.Uint64
	couponsIssued          atomic.Uint64
	couponsSoldOut         atomic.Uint64
}

// The caches the shop keeps, for demo_cache_requests_total.
const (
	productCache = iota
	eventCache
	cacheKinds
)

var cacheKindNames = [cacheKinds]string{"product", "event"}

// handler returns the shop's routes, each timed for /metrics.
func (s *shop) handler() http.Handler {
	mux := http.NewServeMux()
	route := func(method, uri string, h handlerFunc) {
		mux.Handle(method+" "+uri, s.trace.server(method, uri, s.stats.instrument(method, uri, h)))
	}
	route("GET", "/healthz", func(w http.ResponseWriter, r *http.Request) int {
		return writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "database": s.db.name, "cache": s.cache.name()})
	})
	route("GET", "/metrics", s.metrics)
	route("GET", "/apps/first-page", s.firstPage)
	route("GET", "/apps/first-page/{category}", s.firstPage)
	route("GET", "/products/{id}", s.product)
	route("POST", "/login", s.login)
	route("GET", "/me", s.me)
	route("POST", "/coupons/issue", s.issueCoupon)
	route("POST", "/coupons/reset", s.resetCoupons)
	route("GET", "/coupons/stats", s.couponStats)
	route("GET", "/feed", s.readFeed)
	route("POST", "/feed", s.writeFeed)
	mux.Handle("/", s.stats.instrument("ANY", "NOT_FOUND", func(w http.ResponseWriter, r *http.Request) int {
		return writeJSON(w, http.StatusNotFound, map[string]any{"error": "no such endpoint: " + r.Method + " " + r.URL.Path})
	}))
	return mux
}

// variant reads the request's X-Variant header, falling back to the
// server's default; a bad value is answered with a 400 and ok false.
func (s *shop) variant(w http.ResponseWriter, r *http.Request) (v Variant, status int, ok bool) {
	v = s.opt.DefaultVariant
	if h := r.Header[VariantHeader]; len(h) > 0 {
		var err error
		if v, err = ParseVariant(h[0]); err != nil {
			return 0, writeJSON(w, http.StatusBadRequest, map[string]any{"error": VariantHeader + ": " + err.Error()}), false
		}
	}
	w.Header()[VariantHeader] = s.echo[v]
	return v, 0, true
}

// writeJSON writes v as the JSON response and returns the status.
func writeJSON(w http.ResponseWriter, status int, v any) int {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
	return status
}

// writeRaw writes an already encoded JSON body.
func writeRaw(w http.ResponseWriter, status int, body []byte) int {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	w.Write(body)
	return status
}

// jsonContentType is shared by responses written from cached bytes.
var jsonContentType = []string{"application/json"}

// isPoolTimeout tells a request that found no free connection in time.
func isPoolTimeout(err error) bool { return errors.Is(err, errPoolTimeout) }

// errorStatus answers a failed request: 503 when the pool ran dry, else 500.
func (s *shop) errorStatus(w http.ResponseWriter, err error) int {
	status := http.StatusInternalServerError
	if isPoolTimeout(err) {
		status = http.StatusServiceUnavailable
	}
	return writeJSON(w, status, map[string]any{"error": err.Error()})
}

package demo

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// tracing is the shop's OpenTelemetry instrumentation, on when
// Options.OTLPEndpoint is set: a server span per request that continues the
// caller's traceparent, and client spans for its database and cache calls.
// The shop samples only what its callers sampled (parent-based, never on
// its own), so a load test decides how many traces it exports.
type tracing struct {
	tracer
}

// tracerName is the instrumentation scope of the shop's spans.
const tracerName = "github.com/loadlens/loadlens/internal/demo"

// newTracing returns the shop's tracing, exporting over OTLP/HTTP to
// endpoint (a base URL, as OTEL_EXPORTER_OTLP_ENDPOINT gives it); nil when
// endpoint is "".
func newTracing(_ context.Context, endpoint, service string) (*tracing, error) {
	if endpoint == "" {
		return nil, nil
	}
	return &tracing{tracer{exp: newSpanExporter(strings.TrimSuffix(endpoint, "/")+"/v1/traces", service)}}, nil
}

// close flushes the spans not exported yet and stops the exporter.
func (t *tracing) close() error {
	if t == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return t.exp.close(ctx)
}

// server wraps a route's handler in a server span named for the route,
// continuing the trace of the request's traceparent.
func (t *tracing) server(method, uri string, h http.HandlerFunc) http.HandlerFunc {
	if t == nil {
		return h
	}
	name := method + " " + uri
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if sc, ok := parseTraceparent(r.Header.Get("traceparent")); ok {
			ctx = withParent(ctx, sc)
		}
		ctx, span := t.start(ctx, name, tracepb.Span_SPAN_KIND_SERVER, strAttr("http.request.method", method), strAttr("http.route", uri))
		defer span.End()
		h(w, r.WithContext(ctx))
	}
}

// openSQL opens a database/sql pool; with tracing, through tracedConnector,
// which makes a client span (db.system, db.query.text) for each statement.
func (t *tracing) openSQL(driver, dsn, system string) (*sql.DB, error) {
	if t == nil {
		return sql.Open(driver, dsn)
	}
	return openTracedSQL(&t.tracer, driver, dsn, system)
}

// spanName names a statement's span as the semantic conventions suggest,
// "{operation} {table}" (e.g. "SELECT demo_apps"), and other calls by method.
func spanName(method, query string) string {
	f := strings.Fields(query)
	if len(f) == 0 {
		return method
	}
	op := strings.ToUpper(f[0])
	for i := 1; i+1 < len(f); i++ {
		switch strings.ToUpper(f[i]) {
		case "FROM", "INTO", "UPDATE", "TABLE":
			return op + " " + strings.Trim(f[i+1], `"(),;`)
		}
	}
	if op == "UPDATE" && len(f) > 1 {
		return op + " " + f[1]
	}
	return op
}

// cacheSpan starts a client span for one cache call.
func (t *tracing) cacheSpan(ctx context.Context, op, system string) (context.Context, *span) {
	return t.start(ctx, op, tracepb.Span_SPAN_KIND_CLIENT, strAttr("db.system", system), strAttr("db.operation.name", op))
}

// tracedCache makes a client span around each call of the shop's cache.
// The in-process LRU reports db.system "in-process", a name loadlens
// counts as a cache.
type tracedCache struct {
	cache
	t      *tracing
	system string
}

func (c tracedCache) get(ctx context.Context, key []byte) ([]byte, bool, error) {
	ctx, span := c.t.cacheSpan(ctx, "GET", c.system)
	defer span.End()
	return c.cache.get(ctx, key)
}

func (c tracedCache) set(ctx context.Context, key, value []byte) error {
	ctx, span := c.t.cacheSpan(ctx, "SET", c.system)
	defer span.End()
	return c.cache.set(ctx, key, value)
}

func (c tracedCache) counter(ctx context.Context, key string) (int64, error) {
	ctx, span := c.t.cacheSpan(ctx, "GET", c.system)
	defer span.End()
	return c.cache.counter(ctx, key)
}

func (c tracedCache) setCounter(ctx context.Context, key string, v int64) error {
	ctx, span := c.t.cacheSpan(ctx, "SET", c.system)
	defer span.End()
	return c.cache.setCounter(ctx, key, v)
}

func (c tracedCache) addCounter(ctx context.Context, key string, delta int64) (int64, error) {
	ctx, span := c.t.cacheSpan(ctx, "INCRBY", c.system)
	defer span.End()
	return c.cache.addCounter(ctx, key, delta)
}

// traceCache wraps c in spans when tracing is on.
func (t *tracing) traceCache(c cache) cache {
	if t == nil {
		return c
	}
	system := "in-process"
	if c.name() == "redis" {
		system = "redis"
	}
	return tracedCache{cache: c, t: t, system: system}
}

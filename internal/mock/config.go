// Package mock is loadlens's mock server: it stands in for the external
// systems a service under test calls (object stores, third-party APIs), with
// routes, templated answers, latency distributions, injected errors and
// bandwidth limits from a strict YAML file, its own Prometheus metrics, and
// an admin API that changes latency and errors while a test runs.
package mock

import (
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// Defaults of a mock config.
const (
	DefaultListen = "127.0.0.1:8081" // loopback: a mock is never meant to be reachable from elsewhere
	DefaultAdmin  = "/__mock"        // the admin API's and metrics' path prefix
	maxReqBody    = 1 << 20          // bytes of a request body read for matchers and templates
)

// Config is a parsed mock config.
type Config struct {
	File   string
	Listen string     // host:port of the HTTP/1.1 and h2c listener
	TLS    *TLSConfig // nil: no TLS listener
	Admin  string     // path prefix of the admin API and metrics
	Routes []*Route   // in the order written: the first that matches answers
	// AdminToken is required of admin requests (Authorization: Bearer) but
	// a scrape of the metrics; "": none on loopback, and one made up when
	// the mock listens where other hosts reach it (Server.AdminToken).
	AdminToken string
}

// TLSConfig is the TLS listener's.
type TLSConfig struct {
	Listen            string // host:port
	CertFile, KeyFile string // PEM files; both empty: a certificate is generated
}

// Route is one answer the mock gives: to which requests, and how.
type Route struct {
	Name    string // names the route in metrics and the admin API
	Method  string // upper case; "" matches every method
	Path    string // the pattern as written
	pattern pattern
	match   []matcher
	vars    []varSource // request fields the templates read, besides the built-ins and path parameters
	slots   int         // template variable slots: builtins, then path parameters, then vars
	needs   needs       // which built-ins the templates read

	Status    int
	headers   []header
	body      *tmpl.Template // nil: no body
	static    []byte         // the body when it is constant
	staticLen []string       // its Content-Length, shared read-only
	renderMax int64          // the most bytes its templated headers and body render (checkRender)

	initial  Behavior // as configured, for reset
	behavior atomic.Pointer[Behavior]
	stats    *routeStats
}

// Behavior is what the admin API may change while the mock runs: how slow a
// route is, how often it fails, and how fast it sends.
type Behavior struct {
	Latency   Latency
	Faults    []Fault
	Bandwidth float64 // bytes per second of a response body; 0: unlimited
}

// Fault is an injected error: a share of requests answered with one of
// Statuses, or with the connection reset.
type Fault struct {
	Rate     float64 // 0 to 1
	Statuses []int   // picked uniformly; empty with Reset
	Reset    bool    // reset the connection (HTTP/2: the stream) instead of answering
	Body     string
}

// header is a response header whose value may be templated.
type header struct {
	name  string
	value *tmpl.Template
	fixed []string // the value when constant, shared read-only by every response
	added bool     // a Content-Type the mock chose, none being given
}

// builtin template variables, in slot order.
var builtins = []string{"method", "path", "query", "body", "host"}

const (
	slotMethod = iota
	slotPath
	slotQuery
	slotBody
	slotHost
	firstParamSlot
)

// needs says what of the request a route's templates and matchers read.
type needs struct {
	vars bool // any variable: build the values
	body bool // the request body
}

// varSource is a template variable taken from the request.
type varSource struct {
	name string
	from string // json, query, header, form or cookie
	key  string // the query parameter, header, form field or cookie name
	path jsonpath.Path
}

// Settle is how long the mock waits for requests in flight when it stops.
const Settle = 5 * time.Second

// Behavior returns the route's current latency, errors and bandwidth.
func (r *Route) Behavior() Behavior { return *r.behavior.Load() }

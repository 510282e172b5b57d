package demo

import (
	"net/http"
	"sync/atomic"
	"time"
)

// handlerFunc is a shop handler: it writes the response and returns its
// status, so timing needs no ResponseWriter wrapper on the request path.
type handlerFunc func(w http.ResponseWriter, r *http.Request) int

// routeStats counts one route's requests and their total time by status,
// lock-free, for http_server_requests_seconds.
type routeStats struct {
	method, uri string
	byStatus    [500]statusStats // index: status - 100
}

type statusStats struct {
	count atomic.Uint64
	nanos atomic.Uint64
}

// observe records one request.
func (s *routeStats) observe(status int, d time.Duration) {
	if status < 100 || status > 599 {
		status = 500
	}
	st := &s.byStatus[status-100]
	st.count.Add(1)
	st.nanos.Add(uint64(d))
}

// httpStats is every route's statistics, in registration order.
type httpStats struct {
	routes []*routeStats
}

// instrument wraps h so each request is timed under the route's URI template.
func (hs *httpStats) instrument(method, uri string, h handlerFunc) http.HandlerFunc {
	rs := &routeStats{method: method, uri: uri}
	hs.routes = append(hs.routes, rs)
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		status := h(w, r)
		rs.observe(status, time.Since(start))
	}
}

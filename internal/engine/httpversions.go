package engine

import (
	"sync/atomic"

	"github.com/loadlens/loadlens/internal/sample"
)

// versionCount is one endpoint's responses by HTTP version, counted from
// many VUs at once.
type versionCount struct{ http1, http2 atomic.Int64 }

// countVersion counts the final response of a request of a scenario that
// asked for HTTP/2 (http2: true) by the version it came in: a server
// whose ALPN offers no h2 gets HTTP/1.1 from net/http without a word, and
// the run must not pass that off as HTTP/2. major is net/http's ProtoMajor;
// 0, the lean client's, is HTTP/1.1.
func (e *Engine) countVersion(endpoint int32, major int) {
	if endpoint < 0 || int(endpoint) >= len(e.versions) {
		return
	}
	if major == 2 {
		e.versions[endpoint].http2.Add(1)
		return
	}
	e.versions[endpoint].http1.Add(1)
}

// HTTPVersions returns each endpoint's responses by HTTP version, for the
// endpoints of scenarios with http2: true (the others are HTTP/1.1, the
// lean client's); indexed as the plan's Layout.Endpoints.
func (e *Engine) HTTPVersions() []sample.HTTPVersions {
	out := make([]sample.HTTPVersions, len(e.versions))
	for i := range e.versions {
		out[i] = sample.HTTPVersions{HTTP1: e.versions[i].http1.Load(), HTTP2: e.versions[i].http2.Load()}
	}
	return out
}

package engine

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// newClient returns an HTTP client sized so that every VU can keep its own
// kept-alive connection: a pool smaller than the VU count would queue
// requests inside the client and blur what the target did.
func newClient(p *plan.Plan) *http.Client {
	conns := 0
	for _, s := range p.Scenarios {
		conns += maxConcurrency(&s.Load)
	}
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:               nil, // load goes where the test says, never through an environment proxy
		DialContext:         dialer.DialContext,
		MaxIdleConns:        0,
		MaxIdleConnsPerHost: conns + 16,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 30 * time.Second,
		DisableCompression:  true, // measure the bytes the target sends
		ForceAttemptHTTP2:   true,
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: p.Insecure}, //nolint:gosec // the user asked for it
	}
	return &http.Client{Transport: tr}
}

// maxConcurrency returns the most VUs a load can have at once.
func maxConcurrency(l *plan.Load) int {
	switch l.Model {
	case plan.ArrivalRate:
		return l.MaxVUs
	case plan.VUs:
		return plan.MaxVUsOf(l)
	default:
		return l.VUCount
	}
}

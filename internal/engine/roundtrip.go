package engine

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// hop is one request on the wire, described the same way for both clients.
type hop struct {
	method string
	url    []byte // absolute http:// or https:// URL
	header []byte // "Name: value\r\n" lines, without Host and User-Agent
	host   []byte // the Host header's value; nil: the URL's host
	agent  []byte // the User-Agent header's value; nil: defaultUserAgent
	// body is sent with a Content-Length; nil sends none, and a length of
	// 0 for POST, PUT and PATCH only, as net/http does.
	body     []byte
	keepBody bool  // keep the response body for checks and extractions
	maxBody  int64 // keep at most this much of it; 0: all
	// keepError, without keepBody, keeps this much of an error response's
	// body (status 400 or more), for its failure's message.
	keepError int64
	deadline  time.Time
	first     bool      // the request's first hop, its deadline a whole timeout away
	start     time.Time // the first hop's: when the request read the clock (deadline's base)
}

// hopResult is what one hop measured, whichever client sent it.
type hopResult struct {
	sent, received       int64 // bytes as on the wire
	connect, tls, waited time.Duration
	done                 time.Time // when the response was read; zero: the caller reads the clock
	failed               time.Time // when a failed hop's error surfaced; zero: the caller reads the clock
	head                 time.Time // when its first byte arrived; zero: unknown
	truncated            bool      // the kept body stopped at maxBody
	errorCut             bool      // the error body kept (keepError) went on past it
	phase                phase     // how far the hop got; says which timeout a failure was
	statusText           string
	reason               []byte // the lean client's reason phrase
	protoMajor           int    // net/http's response's HTTP major version; 0: the lean client's (1)
}

// end returns when the hop's response was read: as its client saw it, or now.
func (r *hopResult) end() time.Time {
	if r.done.IsZero() {
		return time.Now()
	}
	return r.done
}

// phase is how far a hop got.
type phase uint8

const (
	phaseConnect  phase = iota // resolving and dialling
	phaseTLS                   // in the TLS handshake
	phaseWrite                 // connected: writing the request
	phaseExchange              // the request written: waiting for the response head
	phaseBody                  // the response head arrived: reading its body
)

// roundTripper sends one hop and reads one response into rs: no redirects,
// no cookies. Both clients implement it; everything above it (redirects,
// cookies, header overrides, timeouts and error kinds) is the engine's, once.
type roundTripper interface {
	roundTrip(ctx context.Context, q *hop, res *hopResult, rs *response) error
	close()
}

// defaultUserAgent is sent unless the test sets its own User-Agent.
const defaultUserAgent = "loadlens"

// errScheme reports a URL that is neither http:// nor https://.
var errScheme = errors.New("unsupported URL scheme (want http:// or https://)")

// tripper returns the client for url: the lean HTTP/1.1 client for
// http:// and for https:// (TLS with ALPN offering http/1.1 only), the lean
// HTTP/2 client for https:// when the scenario asks for HTTP/2 (net/http
// when its server does not choose h2), and net/http for everything with
// Options.NetHTTPOnly or Options.NetHTTP2. Each VU creates its clients on
// first use.
func (v *vu) tripper(url []byte) (roundTripper, error) {
	secure := bytes.HasPrefix(url, []byte("https://"))
	if !secure && !bytes.HasPrefix(url, []byte("http://")) {
		return nil, errScheme
	}
	opts := &v.sc.e.opts
	h2 := secure && v.sc.s.HTTP2
	if opts.NetHTTPOnly || h2 && (opts.NetHTTP2 || v.h1 != nil && v.h1.noH2) {
		return v.netClient(), nil
	}
	if v.h1 == nil {
		v.h1 = newH1Trip(v.sc.e, v.sc.parks(), v.sc.s.HTTP2, v.writtenHook(), v.dialHook())
		if v.h1.external {
			v.trip.Store(v.h1) // for closedVU.interrupt, on another goroutine
		}
	}
	if h2 {
		return h2Lean{v}, nil
	}
	return v.h1, nil
}

// netClient returns the VU's net/http client, made on first use.
func (v *vu) netClient() *netTrip {
	if v.net == nil {
		v.net = newNetTrip(v.sc.e, v.sc.s.HTTP2, v.writtenHook(), v.dialHook())
	}
	return v.net
}

// writtenHook is what a closed-model VU's clients call when a request has
// been written: it leaves the start gate then, not when the response comes
// (startgate.go). Nil for the other models, which have no gate.
func (v *vu) writtenHook() func() {
	if v.sc.s.Load.Model != plan.VUs {
		return nil
	}
	return v.leaveGate
}

// dialHook is what a closed-model VU's clients call as a dial starts: a
// connection that waits for its peer past the grace leaves the start gate
// (connectwatch.go). Nil for the other models.
func (v *vu) dialHook() func() func(net.Conn) {
	if v.sc.s.Load.Model != plan.VUs {
		return nil
	}
	return v.gateDial
}

// closeClients releases the VU's connections.
func (v *vu) closeClients() {
	if v.h1 != nil {
		v.h1.close()
	}
	if v.net != nil {
		v.net.close()
	}
}

// tlsConfig returns a new base TLS configuration for one VU's client:
// crypto/tls's defaults, and no certificate check when the test says
// insecure_skip_tls_verify.
func (e *Engine) tlsConfig() *tls.Config {
	return &tls.Config{InsecureSkipVerify: e.plan.Insecure} //nolint:gosec // the user asked for it
}

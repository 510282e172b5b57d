package engine

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// netTrip is a VU's net/http client: https:// when the scenario asks for
// HTTP/2 and its server does not choose it (or with Options.NetHTTP2),
// and everything with Options.NetHTTPOnly. Each VU has its own
// transport, as in k6: its connections are its own, as with the lean
// client, and the bytes its connections carry are this VU's requests'
// bytes. Without HTTP/2 it offers http/1.1 only, as the lean client does,
// so the two make the same TLS handshake.
type netTrip struct {
	tr     *http.Transport
	wire   wireCount
	trace  *httptrace.ClientTrace
	bodyRd bytes.Reader
	// phase timestamps (UnixNano) written by net/http's goroutines, hence atomic
	connStart, connDone, tlsStart, tlsDone, gotConn, wrote, firstByte atomic.Int64
	tlsFailed                                                         atomic.Bool
	http2                                                             bool     // HTTP/2 offered: its writes are waited for only after an HTTP/1.1 answer (roundTrip)
	agent                                                             []string // the default User-Agent header
}

// newNetTrip makes a VU's net/http client; written and dialing are the
// start gate's hooks (nil: none).
func newNetTrip(e *Engine, http2 bool, written func(), dialing func() func(net.Conn)) *netTrip {
	n := &netTrip{agent: []string{defaultUserAgent}, http2: http2}
	cfg := e.tlsConfig()
	cfg.ClientSessionCache = tls.NewLRUClientSessionCache(sessionCacheSize) // this VU's sessions, as the lean client keeps them
	n.tr = &http.Transport{
		Proxy:               nil, // load goes where the test says, never through an environment proxy
		DialContext:         toldDial(countingDial(e.dialer.DialContext, &n.wire), dialing),
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: e.tlsTimeout,
		DisableCompression:  true, // measure the bytes the target sends
		TLSClientConfig:     cfg,
	}
	if http2 {
		n.tr.ForceAttemptHTTP2 = true // a custom dialer would otherwise turn HTTP/2 off
	} else {
		cfg.NextProtos = []string{"http/1.1"}
		n.tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{} // the documented way to turn HTTP/2 off
	}
	stamp := func(a *atomic.Int64) { a.Store(time.Now().UnixNano()) }
	n.trace = &httptrace.ClientTrace{
		ConnectStart:      func(string, string) { stamp(&n.connStart) },
		ConnectDone:       func(string, string, error) { stamp(&n.connDone) },
		TLSHandshakeStart: func() { stamp(&n.tlsStart) },
		TLSHandshakeDone: func(_ tls.ConnectionState, err error) {
			stamp(&n.tlsDone)
			if err != nil {
				n.tlsFailed.Store(true)
			}
		},
		GotConn: func(httptrace.GotConnInfo) { stamp(&n.gotConn) },
		WroteRequest: func(info httptrace.WroteRequestInfo) {
			if info.Err == nil { // also called when the write failed: the request is then unwritten
				stamp(&n.wrote)
			}
			if written != nil {
				written() // on net/http's goroutine: leaveGate is safe there
			}
		},
		GotFirstResponseByte: func() { stamp(&n.firstByte) },
	}
	return n
}

func (n *netTrip) close() { n.tr.CloseIdleConnections() } // also cancels dials still in progress

// sessionCacheSize is how many TLS sessions a VU's net/http client keeps,
// as many as the lean client (h1's sessionCacheSize): one per host.
const sessionCacheSize = 8

func (n *netTrip) resetPhases() {
	for _, a := range []*atomic.Int64{&n.connStart, &n.connDone, &n.tlsStart, &n.tlsDone, &n.gotConn, &n.wrote, &n.firstByte} {
		a.Store(0)
	}
	n.tlsFailed.Store(false)
}

// span returns end−start when both were stamped.
func span(start, end *atomic.Int64) time.Duration {
	s, e := start.Load(), end.Load()
	if s == 0 || e < s {
		return 0
	}
	return time.Duration(e - s)
}

// phase says how far the hop got, from the trace's stamps.
func (n *netTrip) phase() phase {
	switch {
	case n.tlsFailed.Load(), n.tlsStart.Load() != 0 && n.tlsDone.Load() == 0:
		return phaseTLS
	case n.gotConn.Load() != 0 && n.wrote.Load() == 0:
		return phaseWrite
	case n.gotConn.Load() != 0:
		return phaseExchange
	}
	return phaseConnect
}

func (n *netTrip) roundTrip(ctx context.Context, q *hop, res *hopResult, rs *response) error {
	var body io.Reader
	if q.body != nil {
		n.bodyRd.Reset(q.body)
		body = &n.bodyRd
	}
	rctx, cancel := context.WithDeadline(httptrace.WithClientTrace(ctx, n.trace), q.deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, q.method, string(q.url), body)
	if err != nil {
		res.phase = phaseConnect
		return errNotSent{err} // a URL net/http cannot parse: nothing dialled, nothing written
	}
	if req.URL.Host == "" {
		res.phase = phaseConnect
		return errNotSent{errNoHost} // net/http's own check, before any dial
	}
	addHeaderLines(req.Header, q.header)
	if q.agent != nil {
		req.Header["User-Agent"] = []string{string(q.agent)}
	} else {
		req.Header["User-Agent"] = n.agent // shared: net/http only reads it
	}
	if q.host != nil {
		req.Host = string(q.host)
	}
	n.resetPhases()
	read0, written0 := n.wire.read.Load(), n.wire.written.Load()
	// One hop: the transport's RoundTrip never follows a redirect nor keeps a
	// cookie. It is what an http.Client with no Jar and a CheckRedirect that
	// returns ErrUseLastResponse would do, without the client's copy of the
	// headers for redirects that never come.
	resp, err := n.tr.RoundTrip(req)
	headed := err == nil
	if err == nil {
		if !q.keepBody && q.keepError > 0 && resp.StatusCode >= 400 {
			err = rs.readNetError(resp.Body, q.keepError, res)
		} else {
			err = rs.readNet(resp.Body, q.keepBody, q.maxBody, res)
		}
		resp.Body.Close()
		rs.status, rs.header = resp.StatusCode, resp.Header
		res.statusText, res.protoMajor = resp.Status, resp.ProtoMajor
	}
	// The hop ended now: waiting for its request's write to be counted is not its time.
	if end := time.Now(); err == nil {
		res.done = end
	} else {
		res.failed = end
	}
	// Exact for HTTP/1.1: the VU's connections carry only this hop while it
	// lasts, and its request's write, on net/http's goroutine, is waited for
	// (with HTTP/2 offered: when the answer came in HTTP/1.1). For HTTP/2 it
	// is an estimate: frames the connection exchanges on its own (settings,
	// pings, window updates) land in whichever hop is under way, and a write
	// it keeps blocked (flow control) is not waited for.
	written := n.wire.written.Load()
	if !n.http2 || res.protoMajor == 1 {
		written = n.wire.settledWritten(settleWrites)
	}
	res.sent = written - written0
	res.received = n.wire.read.Load() - read0
	res.connect = span(&n.connStart, &n.connDone)
	res.tls = span(&n.tlsStart, &n.tlsDone)
	res.waited = span(&n.wrote, &n.firstByte)
	res.phase = n.phase()
	if headed {
		res.phase = phaseBody
		if fb := n.firstByte.Load(); fb != 0 {
			res.head = time.Unix(0, fb)
		}
	}
	if err != nil && ctx.Err() == nil && rctx.Err() == context.DeadlineExceeded {
		return context.DeadlineExceeded // the request timeout, whatever error it surfaced as
	}
	return err
}

// addHeaderLines adds "Name: value\r\n" lines to a header map, names as written.
func addHeaderLines(h http.Header, b []byte) {
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte("\r\n"))
		b = rest
		name, value, ok := bytes.Cut(line, []byte(": "))
		if ok {
			h[string(name)] = append(h[string(name)], string(value))
		}
	}
}

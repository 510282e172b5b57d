package engine

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// netState is a VU's net/http machinery for https:// (TLS, HTTP/2): the
// trace hooks that time the phases, and a reusable body reader.
type netState struct {
	trace  *httptrace.ClientTrace
	bodyRd bytes.Reader
	// phase timestamps (UnixNano) written by net/http's goroutines, hence atomic
	connStart, connDone, tlsStart, tlsDone, wrote, firstByte atomic.Int64
}

func newNetState() *netState {
	n := &netState{}
	stamp := func(a *atomic.Int64) { a.Store(time.Now().UnixNano()) }
	n.trace = &httptrace.ClientTrace{
		ConnectStart:         func(string, string) { stamp(&n.connStart) },
		ConnectDone:          func(string, string, error) { stamp(&n.connDone) },
		TLSHandshakeStart:    func() { stamp(&n.tlsStart) },
		TLSHandshakeDone:     func(tls.ConnectionState, error) { stamp(&n.tlsDone) },
		WroteRequest:         func(httptrace.WroteRequestInfo) { stamp(&n.wrote) },
		GotFirstResponseByte: func() { stamp(&n.firstByte) },
	}
	return n
}

func (n *netState) resetPhases() {
	for _, a := range []*atomic.Int64{&n.connStart, &n.connDone, &n.tlsStart, &n.tlsDone, &n.wrote, &n.firstByte} {
		a.Store(0)
	}
}

// phase returns end−start when both were stamped.
func phase(start, end *atomic.Int64) time.Duration {
	s, e := start.Load(), end.Load()
	if s == 0 || e < s {
		return 0
	}
	return time.Duration(e - s)
}

// doNet sends a request through net/http.
func (v *vu) doNet(ctx context.Context, r *plan.Request) exchange {
	h := &v.http
	if h.net == nil {
		h.net = newNetState()
	}
	n := h.net
	var body io.Reader
	if r.Body != nil {
		n.bodyRd.Reset(h.body)
		body = &n.bodyRd
	}
	begin := time.Now()
	rctx, cancel := context.WithTimeout(httptrace.WithClientTrace(ctx, n.trace), r.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, r.Method, string(h.url), body)
	if err != nil {
		return exchange{begin: begin, end: time.Now(), err: err}
	}
	for _, hd := range r.Headers {
		h.hdr = hd.Value.Render(h.hdr[:0], &v.tc)
		req.Header[hd.Name] = []string{string(h.hdr)}
	}
	if r.Body != nil {
		req.ContentLength = int64(len(h.body))
	}
	if c := v.jar.value(h.url); c != "" {
		req.Header["Cookie"] = []string{c}
	}
	n.resetPhases()
	resp, err := v.sc.e.client.Do(req)
	var received int64
	rs := &h.resp
	if err == nil {
		received, err = rs.readNet(resp, r.NeedBody)
		resp.Body.Close()
		rs.status, rs.header = resp.StatusCode, resp.Header
		received += headerSize(resp)
		for _, c := range resp.Header["Set-Cookie"] {
			v.jar.store(h.url, c)
		}
	}
	end := time.Now()
	if err != nil && ctx.Err() != nil {
		return exchange{interrupted: true}
	}
	s := &h.sample
	s.Waiting = phase(&n.wrote, &n.firstByte)
	s.Connecting = phase(&n.connStart, &n.connDone)
	s.TLS = phase(&n.tlsStart, &n.tlsDone)
	s.Sent = requestSize(req, len(h.body))
	s.Received = received
	ex := exchange{begin: begin, end: end, err: err, timedOut: errors.Is(rctx.Err(), context.DeadlineExceeded)}
	if err == nil {
		ex.statusLine = resp.Status
	}
	return ex
}

// requestSize estimates the bytes on the wire: request line, headers, body.
func requestSize(req *http.Request, body int) int64 {
	n := len(req.Method) + 1 + len(req.URL.RequestURI()) + len(" HTTP/1.1\r\n") +
		len("Host: \r\n") + len(req.URL.Host) + 2
	for k, vs := range req.Header {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
	}
	return int64(n + body)
}

// headerSize estimates the bytes of a response's status line and headers.
func headerSize(resp *http.Response) int64 {
	n := len(resp.Proto) + 1 + len(resp.Status) + 2 + 2
	for k, vs := range resp.Header {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
	}
	return int64(n)
}

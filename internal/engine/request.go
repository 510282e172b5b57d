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
	"github.com/loadlens/loadlens/internal/sample"
)

// httpState is a VU's reusable request machinery: buffers, the trace hooks
// and the sample it reports, so a request allocates as little as net/http allows.
type httpState struct {
	url, body []byte
	hdr       []byte
	resp      response
	sample    sample.Request
	trace     *httptrace.ClientTrace
	bodyRd    bytes.Reader
	// phase timestamps (UnixNano) written by net/http's goroutines, hence atomic
	connStart, connDone, tlsStart, tlsDone, wrote, firstByte atomic.Int64
}

func (h *httpState) init() {
	stamp := func(a *atomic.Int64) { a.Store(time.Now().UnixNano()) }
	h.trace = &httptrace.ClientTrace{
		ConnectStart:         func(string, string) { stamp(&h.connStart) },
		ConnectDone:          func(string, string, error) { stamp(&h.connDone) },
		TLSHandshakeStart:    func() { stamp(&h.tlsStart) },
		TLSHandshakeDone:     func(tls.ConnectionState, error) { stamp(&h.tlsDone) },
		WroteRequest:         func(httptrace.WroteRequestInfo) { stamp(&h.wrote) },
		GotFirstResponseByte: func() { stamp(&h.firstByte) },
	}
}

func (h *httpState) resetPhases() {
	for _, a := range []*atomic.Int64{&h.connStart, &h.connDone, &h.tlsStart, &h.tlsDone, &h.wrote, &h.firstByte} {
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

// request sends one request step and records it. intended is when it should
// have been sent (zero: now). It returns errInterrupted when ctx ended, in
// which case nothing is recorded: a stopped run is not the target's fault.
func (v *vu) request(ctx context.Context, r *plan.Request, intended time.Time) error {
	h := &v.http
	h.url = r.URL.Render(h.url[:0], &v.tc)
	var body io.Reader
	if r.Body != nil {
		h.body = r.Body.Render(h.body[:0], &v.tc)
		h.bodyRd.Reset(h.body)
		body = &h.bodyRd
	}
	rctx, cancel := context.WithTimeout(httptrace.WithClientTrace(ctx, h.trace), r.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, r.Method, string(h.url), body)
	s := &h.sample
	*s = sample.Request{Endpoint: r.Endpoint}
	if err != nil {
		now := time.Now()
		s.End, s.Duration, s.Kind, s.Err = v.sc.e.since(now), 0, sample.Other, shortMessage(err)
		v.sink.Request(s)
		v.evaluate(r, nil)
		return nil
	}
	for _, hd := range r.Headers {
		h.hdr = hd.Value.Render(h.hdr[:0], &v.tc)
		req.Header[hd.Name] = []string{string(h.hdr)}
	}
	if r.Body != nil {
		req.ContentLength = int64(len(h.body))
	}
	h.resetPhases()
	sent := time.Now()
	if intended.IsZero() {
		intended = sent
	}
	resp, err := v.sc.e.client.Do(req)
	var received int64
	rs := &h.resp
	rs.reset()
	if err == nil {
		received, err = rs.read(resp, r.NeedBody)
		resp.Body.Close()
		rs.status = resp.StatusCode
		rs.header = resp.Header
		received += headerSize(resp)
	}
	end := time.Now()
	if err != nil && ctx.Err() != nil {
		return errInterrupted
	}
	s.End = v.sc.e.since(end)
	s.Duration = end.Sub(intended)
	s.Waiting = phase(&h.wrote, &h.firstByte)
	s.Connecting = phase(&h.connStart, &h.connDone)
	s.TLS = phase(&h.tlsStart, &h.tlsDone)
	s.Sent = requestSize(req, len(h.body))
	s.Received = received
	if err != nil {
		s.Kind, s.Err = classify(err, errors.Is(rctx.Err(), context.DeadlineExceeded))
		if s.Kind == sample.Timeout {
			s.Duration = sent.Add(r.Timeout).Sub(intended) // recorded at the timeout, not at whenever the error surfaced
		}
		rs.status = 0
		v.sink.Request(s)
		v.evaluate(r, nil)
		return nil
	}
	s.Status = rs.status
	s.Kind = sample.KindOfStatus(rs.status)
	if s.Kind != sample.OK {
		s.Err = resp.Status
	}
	v.sink.Request(s)
	v.evaluate(r, rs)
	return nil
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

package engine

import (
	"bytes"
	"context"
	"errors"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/plan"
)

// h1State is a VU's lean HTTP/1.1 client and the context it aborts on.
type h1State struct {
	client *h1.Client
	req    h1.Request
	resp   h1.Response
	ctx    context.Context
	stop   func() bool // unregisters the abort hook
}

func (s *h1State) close() {
	if s.stop != nil {
		s.stop()
	}
	s.client.Close()
}

// errBadHeader reports a rendered header value that would split the request.
var errBadHeader = errors.New("header value contains a line break")

// doH1 sends a plain http:// request with the VU's own connection.
func (v *vu) doH1(ctx context.Context, r *plan.Request) exchange {
	h := &v.http
	if h.h1 == nil {
		h.h1 = &h1State{client: h1.NewClient(v.sc.e.dialer)}
	}
	st := h.h1
	if st.ctx != ctx { // once per VU: the context that stops it aborts its requests
		if st.stop != nil {
			st.stop()
		}
		st.ctx, st.stop = ctx, context.AfterFunc(ctx, st.client.Abort)
	}
	begin := time.Now()
	h.hdr = h.hdr[:0]
	for _, hd := range r.Headers {
		h.hdr = append(h.hdr, hd.Name...)
		h.hdr = append(h.hdr, ": "...)
		start := len(h.hdr)
		h.hdr = hd.Value.Render(h.hdr, &v.tc)
		if bytes.ContainsAny(h.hdr[start:], "\r\n") {
			return exchange{begin: begin, end: time.Now(), err: errBadHeader}
		}
		h.hdr = append(h.hdr, "\r\n"...)
	}
	st.req = h1.Request{Method: r.Method, URL: h.url, Header: h.hdr, KeepBody: r.NeedBody, Timeout: r.Timeout}
	if r.Body != nil {
		st.req.Body = h.body
	}
	err := st.client.Do(&st.req, &st.resp)
	end := time.Now()
	if ctx.Err() != nil || errors.Is(err, h1.ErrAborted) {
		return exchange{interrupted: true}
	}
	resp := &st.resp
	s := &h.sample
	s.Sent, s.Received, s.Connecting = resp.Sent, resp.Received, resp.Connect
	if !resp.FirstByte.IsZero() {
		s.Waiting = resp.FirstByte.Sub(resp.Wrote)
	}
	ex := exchange{begin: begin, end: end, err: err}
	if err != nil {
		var ne net.Error
		ex.timedOut = errors.As(err, &ne) && ne.Timeout()
		return ex
	}
	rs := &h.resp
	rs.status, rs.rawHeader, rs.body = resp.Status, resp.Header, resp.Body
	ex.reason = resp.StatusText
	return ex
}

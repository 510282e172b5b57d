package engine

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/url"
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
	stepHeaders := len(h.hdr)
	method, body := r.Method, []byte(nil)
	if r.Body != nil {
		body = h.body
	}
	s := &h.sample
	resp := &st.resp
	var ex exchange
	for hop := 0; ; hop++ { // redirects are followed inside one sample, as net/http does for https
		h.hdr = v.jar.appendHeader(h.hdr[:stepHeaders], h.url)
		st.req = h1.Request{Method: method, URL: h.url, Header: h.hdr, Body: body, KeepBody: r.NeedBody, Timeout: r.Timeout}
		err := st.client.Do(&st.req, resp)
		ex = exchange{begin: begin, end: time.Now(), err: err}
		if ctx.Err() != nil || errors.Is(err, h1.ErrAborted) {
			return exchange{interrupted: true}
		}
		s.Sent += resp.Sent
		s.Received += resp.Received
		s.Connecting += resp.Connect
		if !resp.FirstByte.IsZero() {
			s.Waiting = resp.FirstByte.Sub(resp.Wrote)
		}
		if err != nil {
			var ne net.Error
			ex.timedOut = errors.As(err, &ne) && ne.Timeout()
			return ex
		}
		v.keepCookies(resp.Header)
		if hop == maxRedirects || !isRedirect(resp.Status) || !v.followRedirect(resp.Header) {
			break
		}
		if resp.Status == 303 || (resp.Status <= 302 && method != "GET" && method != "HEAD") {
			method, body = "GET", nil // what browsers and net/http do
		}
	}
	rs := &h.resp
	rs.status, rs.rawHeader, rs.body = resp.Status, resp.Header, resp.Body
	ex.reason = resp.StatusText
	return ex
}

// maxRedirects is how many redirects a request follows, as in k6.
const maxRedirects = 10

func isRedirect(status int) bool {
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308
}

// keepCookies stores the response's Set-Cookie headers in the VU's jar;
// a response without them costs a scan and no allocation.
func (v *vu) keepCookies(raw []byte) {
	h := &v.http
	h.resp.scratch = h1.HeaderValues(raw, "Set-Cookie", h.resp.scratch[:0])
	for _, c := range h.resp.scratch {
		v.jar.store(h.url, c)
	}
}

// followRedirect points the VU's URL at the response's Location, resolved
// against the current URL; false when there is none or it leaves plain
// HTTP, in which case the redirect itself is the answer.
func (v *vu) followRedirect(raw []byte) bool {
	h := &v.http
	loc := h1.HeaderValues(raw, "Location", h.resp.scratch[:0])
	if len(loc) == 0 {
		return false
	}
	base, err := url.Parse(string(h.url))
	if err != nil {
		return false
	}
	ref, err := url.Parse(loc[0])
	if err != nil {
		return false
	}
	next := base.ResolveReference(ref)
	if next.Scheme != "http" {
		return false
	}
	next.Fragment = ""
	h.url = append(h.url[:0], next.String()...)
	return true
}

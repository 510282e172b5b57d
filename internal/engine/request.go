package engine

import (
	"context"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// httpState is a VU's reusable request machinery: buffers, clients and the
// sample it reports, so that a request allocates nothing on the h1 path.
type httpState struct {
	url, body []byte // the rendered URL and body
	sending   []byte // the body the request in progress sends: body, or a shared one (bigbody.go)
	hdr       stepHeaders
	resp      response
	sample    sample.Request
	hop       hop
	res       hopResult
	seen      []string // the hops of a redirect chain, for loop detection
	said      errorSaid
	// began and ended are the last request's intended start and end, so
	// that its iteration reads the clock no more than its requests do.
	began, ended time.Time
	clk          h1.Clock // reads the time for the request's start
	// endsIter says the current request ends its iteration, which started
	// at iterStart (zero: with the request).
	endsIter  bool
	iterStart time.Time
}

// outcome is how a request ended, after every hop.
type outcome struct {
	end         time.Time
	err         error // a transport error: no response
	phase       phase // how far the failing hop got
	redirect    string
	interrupted bool
	notSent     bool // err stopped the request before any byte was written: no request
}

// request sends one request step and records it. intended is when it should
// have been sent (zero: now). A request the end of the run cuts off is
// recorded as interrupted, and errInterrupted returned; one the run ended
// before is not sent, and not recorded. One that could not be built is no
// request either: v.notSent says why, and its iteration ends there.
func (v *vu) request(ctx context.Context, r *plan.Request, intended time.Time) error {
	if ctx.Err() != nil {
		return errInterrupted
	}
	h := v.http
	h.url = r.URL.Render(h.url[:0], &v.tc)
	h.sending = v.renderBody(r)
	s := &h.sample
	*s = sample.Request{Endpoint: r.Endpoint}
	begin := h.clk.Now()
	if intended.IsZero() {
		intended = begin
	}
	deadline := begin.Add(r.Timeout)
	v.sc.inflight.Add(1)
	out := v.send(ctx, r, begin, deadline)
	v.sc.inflight.Add(-1)
	bodyLen := int64(len(h.sending))
	h.sending = nil
	h.releaseBody()
	if out.notSent {
		v.notSent = notSentReason(r, out.err)
		return nil
	}
	h.began, h.ended = intended, out.end
	s.End = v.sc.e.since(out.end)
	s.Duration = out.end.Sub(intended) // when the outcome surfaced, whichever timeout it was
	switch {
	case out.interrupted && out.phase == phaseBody && h.resp.status != 0 && statusKind(r, h.resp.status) != sample.OK:
		v.cutFailure(r, s, intended)
		v.sink.Request(s)
		return errInterrupted // no checks: the response was never complete
	case out.interrupted:
		s.Status, s.Kind, s.Err = 0, sample.Interrupted, interruptMessage(ctx)
		v.sink.Request(s)
		return errInterrupted // no checks: the response was never complete
	case out.err != nil:
		s.Status = 0
		s.Kind, s.Err = v.sc.e.failure(out.err, out.phase, deadline, r.Timeout, bytesMoved{sent: s.Sent, received: s.Received, body: bodyLen})
		v.record(s)
		v.evaluate(r, nil, s.End)
		return nil
	}
	s.Status = h.resp.status
	if out.redirect != "" {
		s.Kind, s.Err = sample.Redirect, out.redirect
	} else {
		s.Kind, s.Err = v.statusFailure(r, s.Status)
	}
	if r.NeedBody && h.resp.decodeBody(r.MaxBody) {
		s.Truncated = true
	}
	if s.Kind != sample.OK && s.Status >= 400 && validStatus(s.Status) {
		s.Err = h.said.message(s.Status, s.Err, h.errorBody(r), h.res.errorCut || s.Truncated)
	}
	v.record(s)
	h.resp.cut = s.Truncated
	v.evaluate(r, &h.resp, s.End)
	return nil
}

// statusFailure judges a response's status: its kind, and for a failure
// the message its status line makes.
func (v *vu) statusFailure(r *plan.Request, status int) (sample.Kind, string) {
	kind := statusKind(r, status)
	if kind == sample.OK {
		return kind, ""
	}
	h := v.http
	msg := h.res.statusText
	if msg == "" {
		msg = strconv.Itoa(status) + " " + string(h.res.reason)
	}
	switch {
	case !validStatus(status):
		msg = malformedStatus(status)
	case kind == sample.Other:
		msg = "unexpected status " + msg
	}
	return kind, msg
}

// cutFailure records into s a failing response whose body the end of the
// run cut off: its status's failure (a 500 is http_5xx, not interrupted),
// saying that its body was cut. Its duration is until its first byte
// arrived, when the failure was known: exact, where the time to the cut
// would be a lower bound of a body the run did not wait for.
func (v *vu) cutFailure(r *plan.Request, s *sample.Request, intended time.Time) {
	h := v.http
	if head := h.res.head; !head.IsZero() && head.After(intended) {
		h.ended = head
		s.End, s.Duration = v.sc.e.since(head), head.Sub(intended)
	}
	s.Status = h.resp.status
	s.Kind, s.Err = v.statusFailure(r, s.Status)
	if s.Status >= 400 && validStatus(s.Status) {
		s.Err = h.said.message(s.Status, s.Err, h.resp.body, true)
	}
	s.Err += " (its body was cut off by the end of the run)"
}

// record records a finished request, and the iteration it ends with it
// (under one lock) when iterate asked for that and the sink can.
func (v *vu) record(s *sample.Request) {
	h := v.http
	if !h.endsIter || v.last == nil {
		v.sink.Request(s)
		return
	}
	start := h.iterStart
	if start.IsZero() {
		start = h.began
	}
	v.last.RequestIteration(s, v.sc.s.ID, h.ended.Sub(start))
	v.endedIter = true
}

// send makes the request's hops: the step's URL, then each redirect it
// follows, keeping cookies along the way.
func (v *vu) send(ctx context.Context, r *plan.Request, begin, deadline time.Time) outcome {
	h := v.http
	s := &h.sample
	if err := h.hdr.render(r, &v.tc); err != nil {
		return outcome{end: time.Now(), err: err, notSent: true}
	}
	if err := unsendable(r, h.url); err != nil {
		return outcome{end: time.Now(), err: err, notSent: true}
	}
	h.hdr.addTrace(v.tc.Rand, &v.sc.e.opts.Trace, s)
	q := &h.hop
	*q = hop{method: r.Method, url: h.url, host: h.hdr.host, agent: h.hdr.agent,
		body: requestBody(r.Body != nil, h.sending), keepBody: r.NeedBody, maxBody: r.MaxBody,
		keepError: sample.MaxTargetMessage, deadline: deadline, first: true, start: begin}
	ch := chain{own: true}
	for {
		jar := ""
		if !v.jar.empty() {
			if u := ch.current(q.url); u != nil {
				jar = v.jar.header(u)
			}
		}
		q.header = h.hdr.hopLines(ch.own, q.body != nil, jar)
		rt, err := v.tripper(q.url)
		if err != nil {
			return outcome{end: time.Now(), err: err, phase: phaseConnect, notSent: q.first}
		}
		res := &h.res
		*res = hopResult{}
		h.resp.reset()
		err = rt.roundTrip(ctx, q, res, &h.resp)
		s.Sent += res.sent
		s.Received += res.received
		s.Connecting += res.connect
		s.TLS += res.tls
		s.Waiting = res.waited
		s.Truncated = res.truncated
		if err != nil {
			notSent := q.first && res.sent == 0 && buildError(err)
			end := res.failed
			if end.IsZero() {
				end = time.Now()
			}
			return outcome{end: end, err: err, phase: res.phase, interrupted: ctx.Err() != nil && !notSent, notSent: notSent}
		}
		if h.resp.has("Set-Cookie") {
			if u := ch.current(q.url); u != nil {
				v.jar.store(u, h.resp.headerValues("Set-Cookie"))
			}
		}
		if r.MaxRedirects == 0 || !isRedirect(h.resp.status) || !h.resp.has("Location") {
			if v.sc.s.HTTP2 {
				v.sc.e.countVersion(r.Endpoint, res.protoMajor)
			}
			return outcome{end: res.end()} // with redirects: 0 a 3xx is the answer, as in k6
		}
		if why := v.follow(r, q, &ch, jar); why != "" {
			return outcome{end: time.Now(), redirect: why}
		}
		s.Redirects++
		q.first, q.start = false, time.Time{}
	}
}

// requestBody returns what a hop sends as its body: nil for none, in which
// case both clients announce a length of 0 for POST, PUT and PATCH only,
// as net/http does.
func requestBody(has bool, body []byte) []byte {
	if has && len(body) > 0 {
		return body
	}
	return nil
}

// close releases the VU's connections, its sessions' too.
func (v *vu) close() {
	v.closeClients()
	v.closeSessions()
}

// statusKind judges a response's status: below 400 is fine unless the step
// lists the statuses it expects, as k6's expectedStatuses does.
func statusKind(r *plan.Request, status int) sample.Kind {
	if !validStatus(status) {
		return sample.Other // expect_status holds only 100 to 599
	}
	if r.ExpectStatus == nil {
		return sample.KindOfStatus(status)
	}
	for _, want := range r.ExpectStatus {
		if status == want {
			return sample.OK
		}
	}
	if k := sample.KindOfStatus(status); k != sample.OK {
		return k
	}
	return sample.Other // a 2xx or 3xx the step did not expect
}

// errorBody returns what a failed response's body holds for its message:
// the step's kept body, or the start kept for the error (hop.keepError),
// decoded when it came gzip- or deflate-encoded.
func (h *httpState) errorBody(r *plan.Request) []byte {
	if !r.NeedBody && len(h.resp.body) > 0 {
		h.resp.decodeBody(sample.MaxTargetMessage)
	}
	return h.resp.body
}

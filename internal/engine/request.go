package engine

import (
	"bytes"
	"context"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// httpState is a VU's reusable request machinery: buffers, clients and the
// sample it reports, so that a request allocates nothing on the h1 path.
type httpState struct {
	url, body, hdr []byte
	resp           response
	sample         sample.Request
	h1             *h1State  // plain http:// requests
	net            *netState // https:// requests (TLS, HTTP/2), through net/http
}

// request sends one request step and records it. intended is when it should
// have been sent (zero: now). It returns errInterrupted when ctx ended, in
// which case nothing is recorded: a stopped run is not the target's fault.
func (v *vu) request(ctx context.Context, r *plan.Request, intended time.Time) error {
	h := &v.http
	h.url = r.URL.Render(h.url[:0], &v.tc)
	h.body = h.body[:0]
	if r.Body != nil {
		h.body = r.Body.Render(h.body, &v.tc)
	}
	s := &h.sample
	*s = sample.Request{Endpoint: r.Endpoint}
	h.resp.reset()
	var ex exchange
	if bytes.HasPrefix(h.url, []byte("http://")) && !v.sc.e.opts.NetHTTPOnly {
		ex = v.doH1(ctx, r)
	} else {
		ex = v.doNet(ctx, r)
	}
	if ex.interrupted {
		return errInterrupted
	}
	if intended.IsZero() {
		intended = ex.begin
	}
	s.End = v.sc.e.since(ex.end)
	s.Duration = ex.end.Sub(intended)
	if ex.err != nil {
		s.Kind, s.Err = classify(ex.err, ex.timedOut)
		if s.Kind == sample.Timeout {
			s.Duration = ex.begin.Add(r.Timeout).Sub(intended) // recorded at the timeout, not whenever the error surfaced
		}
		s.Status = 0
		v.sink.Request(s)
		v.evaluate(r, nil)
		return nil
	}
	s.Status = h.resp.status
	s.Kind = statusKind(r, s.Status)
	if s.Kind != sample.OK {
		s.Err = ex.statusLine
		if s.Err == "" {
			s.Err = strconv.Itoa(s.Status) + " " + string(ex.reason)
		}
		if s.Kind == sample.Other {
			s.Err = "unexpected status " + s.Err
		}
	}
	v.sink.Request(s)
	v.evaluate(r, &h.resp)
	return nil
}

// exchange is how one request went, whichever client sent it.
type exchange struct {
	begin, end  time.Time // from handing the request to the client (dial included) to the end of the response
	err         error
	timedOut    bool
	interrupted bool
	statusLine  string // net/http's "404 Not Found"
	reason      []byte // h1's reason phrase; turned into a message only for failures
}

// close releases the VU's connections.
func (v *vu) close() {
	if v.http.h1 != nil {
		v.http.h1.close()
	}
}

// statusKind judges a response's status: below 400 is fine unless the step
// lists the statuses it expects, as k6's expectedStatuses does.
func statusKind(r *plan.Request, status int) sample.Kind {
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

package sse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/units"
)

// connect opens one connection of the session and reads its events until
// the session's end (sctx), max_events, a failure, or the server closing
// the stream (closed true). ctx is the run's: its end is an interruption.
func (s *session) connect(ctx, sctx context.Context) (closed bool, err error) {
	st := s.st.s
	cctx, cancel := context.WithCancelCause(sctx)
	defer cancel(nil)
	s.idle = time.AfterFunc(st.Timeout, func() { cancel(errStalled) })
	defer s.idle.Stop()
	req, err := s.request(cctx)
	if err != nil {
		return false, err
	}
	resp, err := s.tr.RoundTrip(req)
	if err != nil {
		return false, s.cut(ctx, sctx, cctx, err, "no response head")
	}
	defer resp.Body.Close()
	s.status = resp.StatusCode
	s.checkHead(resp)
	if resp.StatusCode != http.StatusOK {
		// read within the idle timeout still running: a body that stalls ends the wait, not the session's life
		return false, fmt.Errorf("%w: status %s", errStatus, protocol.Refused(resp.StatusCode, statusReason(resp), resp.Body))
	}
	if ct := resp.Header.Get("Content-Type"); !isEventStream(ct) {
		return false, fmt.Errorf("%w: Content-Type %q", errStatus, ct)
	}
	s.idle.Reset(st.Timeout)
	s.p.reset()
	s.ctx = cctx
	for !s.done {
		n, rerr := resp.Body.Read(s.buf)
		if perr := s.p.feed(s.buf[:n], s.emitFn); perr != nil {
			return false, perr
		}
		switch {
		case rerr == nil:
		case errors.Is(rerr, io.EOF):
			return true, nil
		default:
			return false, s.cut(ctx, sctx, cctx, rerr, "no event")
		}
	}
	return false, nil
}

// cut says why a connection's read or round trip failed: the session's
// duration ending is no failure (nil), a stall is a timeout, the run's end
// an interruption (ctx's error), anything else the error itself.
func (s *session) cut(ctx, sctx, cctx context.Context, err error, what string) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case sctx.Err() != nil:
		return nil
	case errors.Is(context.Cause(cctx), errStalled):
		return timeoutError(what + " within the timeout (" + units.DurationLiteral(s.st.s.Timeout) + ") after " + units.CountOf(s.facts.MsgsReceived, "event", "events"))
	}
	return err
}

// statusReason is a response's reason phrase: Status less its code ("503
// Service Unavailable" → "Service Unavailable").
func statusReason(resp *http.Response) string {
	return strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
}

// timeoutError is a stall, classified as a timeout as net.Error timeouts are.
type timeoutError string

func (e timeoutError) Error() string   { return string(e) }
func (e timeoutError) Timeout() bool   { return true }
func (e timeoutError) Temporary() bool { return true }

// request builds the subscription: the step's URL and headers rendered for
// the VU, Accept: text/event-stream, and Last-Event-ID on a reconnection.
func (s *session) request(ctx context.Context) (*http.Request, error) {
	tc := s.vu.Vars()
	st := s.st.s
	s.url = st.URL.Render(s.url[:0], tc)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, string(s.url), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cache-Control", "no-cache")
	req.Header.Set("User-Agent", "loadlens")
	var val []byte
	for _, h := range st.Headers {
		val = h.Value.Render(val[:0], tc)
		if h.Name == "Host" {
			req.Host = string(val)
			continue
		}
		req.Header.Set(h.Name, string(val))
	}
	if s.p.lastID != "" {
		req.Header.Set("Last-Event-ID", s.p.lastID)
	}
	return req, nil
}

// emit counts one event: its gap from the previous one, the first's time,
// its checks, and the end of the session at max_events.
func (s *session) emit(data []byte) {
	now := time.Now()
	f := &s.facts
	if f.MsgsReceived == 0 {
		f.FirstMsg = now.Sub(s.intended)
	} else {
		f.Gap(now.Sub(s.lastEvent))
	}
	f.MsgsReceived++
	s.lastEvent = now
	s.idle.Reset(s.st.s.Timeout)
	s.checkEvent(data, now)
	if m := s.st.s.MaxMessages; m > 0 && f.MsgsReceived >= int64(m) {
		s.done = true
	}
}

package sse

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// errStalled is the cause of a connection cut because no event came
// within the step's timeout.
var errStalled = errors.New("stalled")

// session is one VU's runner of one sse: step.
type session struct {
	st     *step
	tr     *http.Transport
	p      *parser
	buf    []byte
	url    []byte
	emitFn func([]byte)

	// the run under way
	ctx       context.Context
	vu        protocol.VU
	intended  time.Time
	begin     time.Time
	lastEvent time.Time
	idle      *time.Timer // cuts a stalled connection
	done      bool        // max_events reached
	facts     sample.Facts
	sample    sample.Request
	status    int
	wire      *protocol.Wire // the session's connections' bytes, as the HTTP path counts them
	read0     int64          // wire's counts when the run began
	written0  int64
}

// Run subscribes, reads events until the step's end, and records the sample.
func (s *session) Run(ctx context.Context, vu protocol.VU, intended time.Time) time.Time {
	st := s.st.s
	s.vu, s.intended, s.begin = vu, intended, time.Now()
	s.lastEvent, s.done, s.status = time.Time{}, false, 0
	s.read0, s.written0 = s.wire.Mark()
	s.facts.Reset()
	s.p.lastID, s.p.retry = "", -1
	sctx := ctx
	if st.Duration > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithDeadline(ctx, s.begin.Add(st.Duration))
		defer cancel()
	}
	var err error
	for conn := 0; ; conn++ {
		if conn > 0 {
			s.facts.Reconnects++
			if !s.waitRetry(sctx) {
				break
			}
		}
		var closed bool
		closed, err = s.connect(ctx, sctx)
		if err != nil || !closed || s.done {
			break
		}
		if conn == st.Reconnects {
			err = fmt.Errorf("%w after %s, before the step's end (reconnect: %d)", errClosed, units.CountOf(s.facts.MsgsReceived, "event", "events"), st.Reconnects)
			break
		}
	}
	return s.record(ctx, err)
}

// waitRetry waits the reconnection time the stream asked for (retry:),
// none when it asked for none; false when the session ended meanwhile.
func (s *session) waitRetry(sctx context.Context) bool {
	if s.p.retry <= 0 {
		return sctx.Err() == nil
	}
	t := time.NewTimer(time.Duration(s.p.retry) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-sctx.Done():
		return false
	}
}

// record reports the session's sample and returns when it ended.
func (s *session) record(ctx context.Context, err error) time.Time {
	end := time.Now()
	r := &s.sample
	read, written := s.wire.Mark()
	*r = sample.Request{Endpoint: s.st.s.Endpoint, End: s.vu.Since(end), Duration: end.Sub(s.intended),
		Sent: written - s.written0, Received: read - s.read0, Status: s.status, Facts: &s.facts}
	if s.facts.MsgsReceived > 0 {
		r.Waiting = s.facts.FirstMsg
	}
	s.facts.Session = end.Sub(s.begin)
	if err != nil {
		r.Kind, r.Err = s.vu.Outcome(ctx, err)
		switch {
		case r.Kind == sample.Interrupted:
		case errors.Is(err, errStatus):
			r.Kind = statusKind(s.status)
			r.Err = err.Error() // whole: what the target said is bounded already, and Outcome cuts at 200 bytes
		case errors.Is(err, errClosed):
			r.Kind = sample.ConnReset
		}
	}
	s.vu.Record(r)
	return end
}

// Close releases the session's connections.
func (s *session) Close() { s.tr.CloseIdleConnections() }

// errClosed is a stream the server closed before the step's end, with no
// reconnection left.
var errClosed = errors.New("the server closed the stream")

// errStatus marks a response that is not an event stream.
var errStatus = errors.New("not an event stream")

// statusKind is the failure kind of a response that opened no stream.
func statusKind(status int) sample.Kind {
	if k := sample.KindOfStatus(status); k != sample.OK {
		return k
	}
	return sample.Other
}

// isEventStream reports whether a Content-Type is text/event-stream.
func isEventStream(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}

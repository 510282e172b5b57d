package grpc

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/engine/h2"
)

// ClientEnv names the environment variable that chooses the client of
// unary calls: "grpc-go" sends them through grpc-go, as streaming calls
// always go; anything else, or unset, through the lean path (lean.go).
const ClientEnv = "LOADLENS_GRPC_CLIENT"

// leanByDefault reports whether unary calls take the lean path.
func leanByDefault() bool { return os.Getenv(ClientEnv) != "grpc-go" }

// lean is a VU's unary calls over its own HTTP/2 connection (package h2):
// the call's HEADERS and DATA frames in one write and its answer read on
// the VU's goroutine, where grpc-go spends three goroutines a call (its
// stream's, the loopy writer's and the reader's) and some 200 allocations.
type lean struct {
	c     *h2.Client
	cfg   h2.Config
	url   []byte // http(s)://target/package.Service/Method
	hdr   []byte // the request's header lines
	body  []byte // the 5-byte prefix and the message
	fixed bool   // body holds the constant message, encoded once
	req   h1.Request
	resp  h1.Response
	done  <-chan struct{} // the Done of the context whose end aborts the client
	stop  func() bool
	ended atomic.Bool // the client was aborted: a new one for the next context
}

// newLean returns a session's lean client, dialling through s.dial.
func newLean(s *session) *lean {
	st := s.st
	l := &lean{}
	l.cfg = h2.Config{Dial: func(ctx context.Context, _, addr string) (net.Conn, error) { return s.dial(ctx, addr) },
		HandshakeTimeout: st.env.HandshakeTimeout, NoContentLength: true}
	scheme := "http://"
	if st.s.GRPC.TLS {
		scheme = "https://"
		l.cfg.TLS = st.env.TLS()
	}
	l.url = []byte(scheme + st.s.GRPC.Target + st.fullMethod)
	l.c = h2.New(l.cfg)
	return l
}

// watch makes ctx's end abort the call in flight (once per context: the
// VU's run keeps one).
func (l *lean) watch(ctx context.Context) {
	done := ctx.Done() // compared, not ctx: a context need not be comparable
	if done == l.done && l.stop != nil || done == nil && !l.ended.Load() {
		return
	}
	if l.stop != nil {
		l.stop()
	}
	if l.ended.Load() {
		l.c.Close()
		l.c = h2.New(l.cfg)
		l.ended.Store(false)
	}
	l.done = done
	c := l.c
	l.stop = context.AfterFunc(ctx, func() { l.ended.Store(true); c.Abort() })
}

// close stops watching the run's context and closes the connection.
func (l *lean) close() {
	if l.stop != nil {
		l.stop()
	}
	l.c.Close()
}

// leanCall makes one unary call through the lean client.
func (s *session) leanCall(ctx context.Context) error {
	l := s.lean
	l.watch(ctx)
	if err := s.leanBody(); err != nil {
		s.judgeHead(nil, err)
		return err
	}
	deadline := s.begin.Add(s.st.s.Timeout)
	s.leanHeader(deadline)
	l.req = h1.Request{Method: "POST", URL: l.url, Header: l.hdr, Body: l.body, KeepBody: true,
		MaxBody: int64(s.st.s.MaxMessage) + 2*prefixLen, Deadline: deadline}
	err := l.c.Do(&l.req, &l.resp)
	if !l.resp.Wrote.IsZero() {
		s.facts.MsgsSent++
	}
	if err != nil {
		err = s.transportErr(ctx, err, deadline)
	} else {
		err = s.leanResponse()
	}
	s.leanHead(err)
	return err
}

// prefixLen is a gRPC message's prefix: a compressed flag and a length.
const prefixLen = 5

// leanBody encodes the request message behind its prefix, once for a
// constant one.
func (s *session) leanBody() error {
	l := s.lean
	if l.fixed {
		return nil
	}
	m, err := s.request(0)
	if err != nil {
		return err
	}
	b, err := proto.MarshalOptions{}.MarshalAppend(append(l.body[:0], 0, 0, 0, 0, 0), m)
	if err != nil {
		return status.Errorf(codes.Internal, "grpc: error while marshaling: %v", err)
	}
	n := len(b) - prefixLen
	b[1], b[2], b[3], b[4] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	l.body = b
	_, l.fixed = s.st.s.GRPC.Messages[0].Const()
	return nil
}

// leanHeader writes the request's header lines: gRPC's, the metadata
// (binary values in base64, as grpc-go sends them) and the time left.
func (s *session) leanHeader(deadline time.Time) {
	l := s.lean
	h := append(l.hdr[:0], "content-type: application/grpc\r\nte: trailers\r\n"...)
	var val []byte
	for _, hd := range s.st.s.Headers {
		name := strings.ToLower(hd.Name)
		val = hd.Value.Render(val[:0], s.vu.Vars())
		h = append(append(h, name...), ": "...)
		if strings.HasSuffix(name, "-bin") {
			h = base64.RawStdEncoding.AppendEncode(h, val)
		} else {
			h = append(h, val...)
		}
		h = append(h, "\r\n"...)
	}
	h = append(h, "grpc-timeout: "...)
	h = appendTimeout(h, time.Until(deadline))
	l.hdr = append(h, "\r\n"...)
}

// appendTimeout appends d as grpc-timeout says it, as grpc-go writes it:
// the finest unit whose value fits in 8 digits, rounded up.
func appendTimeout(b []byte, d time.Duration) []byte {
	if d <= 0 {
		return append(b, "0n"...)
	}
	for _, u := range timeoutUnits {
		if v := (d + u.d - 1) / u.d; v <= 1e8-1 {
			return append(strconv.AppendInt(b, int64(v), 10), u.c)
		}
	}
	return append(strconv.AppendInt(b, int64((d+time.Hour-1)/time.Hour), 10), 'H')
}

var timeoutUnits = []struct {
	d time.Duration
	c byte
}{{time.Nanosecond, 'n'}, {time.Microsecond, 'u'}, {time.Millisecond, 'm'}, {time.Second, 'S'}, {time.Minute, 'M'}}

// transportErr turns the h2 client's failure into the status grpc-go's
// transport gives the same failure.
func (s *session) transportErr(ctx context.Context, err error, deadline time.Time) error {
	var hs *h1.HandshakeError
	var se *h2.StreamError
	switch {
	case ctx.Err() != nil || errors.Is(err, h1.ErrAborted):
		return status.Error(codes.Canceled, context.Canceled.Error())
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, context.DeadlineExceeded.Error())
	case errors.As(err, &hs):
		s.connErr.Store(&hs.Err)
		return status.Error(codes.Unavailable, "connection error: "+hs.Err.Error())
	case errors.Is(err, h2.ErrNoHTTP2):
		return status.Error(codes.Unavailable, "connection error: credentials: cannot check peer: missing selected ALPN property")
	case s.connErr.Load() != nil: // the dial failed (s.dial kept it)
		return status.Error(codes.Unavailable, "connection error: "+err.Error())
	case errors.As(err, &se):
		code := streamCode(se)
		if code == codes.Canceled && !deadline.After(time.Now()) { // the server's timer of our grpc-timeout: grpc-go says so too
			code = codes.DeadlineExceeded
		}
		return status.Error(code, "stream terminated by RST_STREAM with error code: "+se.Code.String())
	case errors.Is(err, h1.ErrMalformed), errors.Is(err, h1.ErrHeaderTooBig):
		return status.Error(codes.Internal, err.Error())
	}
	return status.Error(codes.Unavailable, "error reading from server: "+err.Error())
}

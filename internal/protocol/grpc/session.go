package grpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/sample"
)

// session is one VU's runner of one grpc: step.
type session struct {
	st        *step
	cc        *grpc.ClientConn
	lean      *lean                 // unary calls' own HTTP/2 client, when they take the lean path
	clientErr error                 // the connection could not be set up (a bad TLS setting)
	connErr   atomic.Pointer[error] // the last dial's or TLS handshake's error, nil after a dial that worked

	vu       protocol.VU
	intended time.Time
	begin    time.Time
	lastMsg  time.Time
	json     []byte // the message being rendered
	last     []byte // the last message received, in its JSON form, for extract:
	md       metadata.MD
	header   http.Header // the response metadata, for header checks and extract:
	facts    sample.Facts
	sample   sample.Request
	// wire counts the bytes of the VU's connection on its socket (HTTP/2
	// framing, headers and TLS included), as the HTTP path counts; read0
	// and written0 are its marks at the last call's end, so what the
	// transport writes between calls (PINGs, WINDOW_UPDATEs) is the next
	// call's, not lost.
	wire            protocol.Wire
	read0, written0 int64
	// fixed holds, by index, the decoded request messages whose template is
	// constant: decoded at the VU's first call instead of at every call
	// (protojson was about 4 % of a unary run's CPU samples). SendMsg only reads them.
	fixed []*dynamicpb.Message
}

// errMessage is a request message that does not fit the method's input.
var errMessage = errors.New("request message")

// Run makes one call and records its sample.
func (s *session) Run(ctx context.Context, vu protocol.VU, intended time.Time) time.Time {
	s.vu, s.intended, s.begin = vu, intended, time.Now()
	s.lastMsg, s.last, s.header = time.Time{}, s.last[:0], nil
	s.facts.Reset()
	err := s.clientErr
	switch {
	case err != nil:
	case s.lean != nil:
		err = s.leanCall(ctx)
	default:
		err = s.call(ctx)
	}
	return s.record(ctx, err)
}

// call sends the step's messages and reads the responses until the server
// ends the call, max_messages, the deadline (the step's timeout) or ctx.
func (s *session) call(ctx context.Context) error {
	st := s.st
	cctx, cancel := context.WithTimeout(ctx, st.s.Timeout)
	defer cancel()
	s.metadata()
	stream, err := s.cc.NewStream(metadata.NewOutgoingContext(cctx, s.md), st.desc, st.fullMethod)
	if err != nil {
		s.checkHead(nil, err)
		return err
	}
	sendErr := make(chan error, 1)
	if st.desc.ClientStreams && st.desc.ServerStreams {
		go func() { // bidirectional: the server may answer while we send
			err := s.sendAll(stream)
			if err != nil {
				cancel() // the receiver stops too
			}
			sendErr <- err
		}()
	} else if err := s.sendAll(stream); err != nil {
		cancel() // the server still waits for the request: end the call
		s.checkHead(stream, err)
		return err
	} else {
		sendErr <- nil
	}
	err = s.receive(stream)
	if serr := <-sendErr; serr != nil && (err == nil || errors.Is(serr, errMessage)) {
		err = serr
	}
	s.checkHead(stream, err)
	return err
}

// sendAll sends every request message, then half-closes the stream.
func (s *session) sendAll(stream grpc.ClientStream) error {
	for i := range s.st.s.GRPC.Messages {
		m, err := s.request(i)
		if err != nil {
			return err
		}
		if err := stream.SendMsg(m); err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the server ended the call: RecvMsg says how
			}
			return err
		}
		s.facts.MsgsSent++
	}
	return stream.CloseSend()
}

// request returns the step's i-th request message, rendered and decoded,
// or kept from the VU's first call when its template is constant.
func (s *session) request(i int) (*dynamicpb.Message, error) {
	t := s.st.s.GRPC.Messages[i]
	_, fixed := t.Const()
	if fixed && i < len(s.fixed) && s.fixed[i] != nil {
		return s.fixed[i], nil
	}
	in := s.st.method.Input()
	s.json = t.Render(s.json[:0], s.vu.Vars())
	m := dynamicpb.NewMessage(in)
	if err := protojson.Unmarshal(s.json, m); err != nil {
		return nil, fmt.Errorf("%w %d is not a %s: %v", errMessage, i+1, in.FullName(), err)
	}
	if fixed {
		if len(s.fixed) == 0 {
			s.fixed = make([]*dynamicpb.Message, len(s.st.s.GRPC.Messages))
		}
		s.fixed[i] = m
	}
	return m, nil
}

// receive reads response messages until the call's end (nil for OK) or
// max_messages, which ends it as the step's own end.
func (s *session) receive(stream grpc.ClientStream) error {
	out := s.st.method.Output()
	for {
		m := dynamicpb.NewMessage(out)
		err := stream.RecvMsg(m)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if s.message(time.Now(), m) || !s.st.desc.ServerStreams {
			return nil
		}
	}
}

// metadata renders the step's metadata; gRPC's keys are lower case.
func (s *session) metadata() {
	if s.md == nil {
		s.md = metadata.MD{}
	}
	clear(s.md)
	var val []byte
	for _, h := range s.st.s.Headers {
		val = h.Value.Render(val[:0], s.vu.Vars())
		s.md.Append(h.Name, string(val))
	}
}

// dial connects for the VU's connection, keeping its error for kind.
func (s *session) dial(ctx context.Context, addr string) (net.Conn, error) {
	c, err := s.wire.Dial(s.st.env.Dialer)(ctx, "tcp", addr)
	if err != nil {
		s.connErr.Store(&err)
	} else {
		s.connErr.Store(nil)
	}
	return c, err
}

// Close closes the VU's connection.
func (s *session) Close() {
	if s.cc != nil {
		_ = s.cc.Close()
	}
	if s.lean != nil {
		s.lean.close()
	}
}

// record reports the call's sample and returns when it ended.
func (s *session) record(ctx context.Context, err error) time.Time {
	end := time.Now()
	f := &s.facts
	f.Session = end.Sub(s.begin)
	code := callCode(err)
	f.Code = int(code)
	s.extract(end)
	read, written := s.wire.Mark()
	r := &s.sample
	*r = sample.Request{Endpoint: s.st.s.Endpoint, End: s.vu.Since(end), Duration: end.Sub(s.intended),
		Sent: written - s.written0, Received: read - s.read0, Waiting: f.FirstMsg, Facts: f}
	s.read0, s.written0 = read, written
	if err != nil || s.st.s.GRPC.ExpectStatus != nil {
		r.Kind, r.Err = s.kind(ctx, err, code)
	}
	s.vu.Record(r)
	return end
}

// kind classifies a call that failed, or any call of a step with
// expect_status: the run's end, a connection that could not be made
// (refused, DNS, TLS: as the HTTP path says, whatever expect_status lists),
// a status expect_status lists (no failure), an OK it does not list
// (other, as HTTP's unexpected 2xx), a request message that does not fit,
// else the gRPC status code's own kind.
func (s *session) kind(ctx context.Context, err error, code codes.Code) (sample.Kind, string) {
	if err != nil && ctx.Err() != nil {
		return s.vu.Outcome(ctx, err)
	}
	if de := s.connErr.Load(); code == codes.Unavailable && de != nil {
		k, msg := s.vu.Outcome(ctx, *de)
		return k, msg
	}
	if expect := s.st.s.GRPC.ExpectStatus; expect != nil && !errors.Is(err, errMessage) && s.clientErr == nil {
		switch {
		case slices.Contains(expect, int(code)):
			return sample.OK, ""
		case code == codes.OK:
			return sample.Other, "status OK, which expect_status does not list"
		}
	}
	if errors.Is(err, errMessage) || s.clientErr != nil && errors.Is(err, s.clientErr) {
		return sample.Other, err.Error()
	}
	if st, ok := status.FromError(err); ok {
		return sample.KindOfGRPC(int(code)), sample.GRPCCodeName(int(code)) + ": " + sample.CleanMessage(st.Message(), false)
	}
	return s.vu.Outcome(ctx, err)
}

// callCode is the gRPC status a call ended with: OK, the server's or the
// client library's, or CANCELLED for a call cancelled for its message.
func callCode(err error) codes.Code {
	if errors.Is(err, errMessage) {
		return codes.Canceled
	}
	return status.Code(err)
}

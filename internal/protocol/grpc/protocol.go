// Package grpc runs gRPC steps (grpc:): a VU calls one method (unary,
// server-streaming, client-streaming or bidirectional) on the connection
// it keeps for the step, with its request messages written in YAML or
// JSON and turned into protobuf through the method's descriptors, read
// from .proto files or the server's reflection before the run starts. One
// sample per call, whose Facts hold the messages sent and received, the
// time to the first message, the gaps and the gRPC status code; a status
// other than OK fails the call with its own kind (grpc_unavailable …).
package grpc

import (
	"context"
	"fmt"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// Protocol is gRPC, as the engine's registry names it: "grpc".
type Protocol struct{}

var _ protocol.Protocol = Protocol{}

// Prepare reads the method's descriptors (from the .proto files, a
// protoset, or by asking the server's reflection) and returns the step ready for every VU.
func (Protocol) Prepare(s *plan.Session, env protocol.Env) (protocol.Step, error) {
	g := s.GRPC
	if g == nil {
		return nil, fmt.Errorf("a grpc session without its grpc settings")
	}
	st := &step{s: s, env: env}
	var md protoreflect.MethodDescriptor
	var err error
	switch {
	case len(g.Protos) > 0:
		md, err = fromProtos(g)
	case g.Protoset != "":
		md, err = fromProtoset(g)
	default:
		md, err = st.fromReflection()
	}
	if err != nil {
		return nil, err
	}
	st.method, st.needJSON, st.needHeader, st.lean = md, needsJSON(s), needsHeader(s), leanByDefault()
	st.fullMethod = "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
	st.desc = &grpc.StreamDesc{StreamName: string(md.Name()), ServerStreams: md.IsStreamingServer(), ClientStreams: md.IsStreamingClient()}
	if !md.IsStreamingClient() && len(g.Messages) > 1 {
		return nil, atError(g.MethodAt, "%s takes one request message, and the step gives %d (messages: is for client-streaming and bidirectional methods)",
			g.Method, len(g.Messages))
	}
	return st, nil
}

var _ protocol.Checker = Protocol{}

// Check reads the step's descriptors from its .proto files or protoset
// and checks its method and messages against them, as Prepare does, with
// no server; a step its server's reflection describes is left to the run.
func (Protocol) Check(s *plan.Session) error {
	if g := s.GRPC; g == nil || len(g.Protos) == 0 && g.Protoset == "" {
		return nil
	}
	_, err := Protocol{}.Prepare(s, protocol.Env{})
	return err
}

// step is a prepared grpc: step.
type step struct {
	s          *plan.Session
	env        protocol.Env
	method     protoreflect.MethodDescriptor
	fullMethod string // /package.Service/Method, as it goes on the wire
	desc       *grpc.StreamDesc
	needJSON   bool // checks or extract: read the response messages
	lean       bool // unary calls take the lean path (lean.go), not grpc-go
	needHeader bool // checks or extract: read the response metadata
}

// NewSession returns a VU's runner with its own connection (HTTP/2, made
// at the first call and kept): as k6 does, each VU has its own, so the
// load spreads over as many connections as there are VUs.
func (st *step) NewSession() protocol.Session {
	s := &session{st: st}
	if st.lean && !st.desc.ClientStreams && !st.desc.ServerStreams {
		s.lean = newLean(s)
		return s
	}
	cc, err := st.client(s.dial, s.connErr.Store)
	s.cc, s.clientErr = cc, err
	return s
}

// client returns a connection to the step's target that dials with dial
// and tells failed TLS handshakes to handshakeErr; grpc.NewClient
// connects lazily, at the first call.
func (st *step) client(dial func(context.Context, string) (net.Conn, error), handshakeErr func(*error)) (*grpc.ClientConn, error) {
	creds := insecure.NewCredentials()
	if st.s.GRPC.TLS {
		cfg := st.env.TLS()
		cfg.NextProtos = []string{"h2"}
		creds = handshakes{credentials.NewTLS(cfg), handshakeErr}
	}
	// passthrough: the dialer resolves the name, so a DNS failure is one
	// the VU classifies, and no resolver goroutine runs per VU
	return grpc.NewClient("passthrough:///"+st.s.GRPC.Target,
		grpc.WithTransportCredentials(creds),
		grpc.WithContextDialer(dial),
		grpc.WithUserAgent("loadlens"),
		grpc.WithConnectParams(reconnect),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(int(st.s.MaxMessage))))
}

// reconnect caps grpc-go's reconnect backoff at a second (its default
// grows to 120 s): after a target's restart, a VU's calls would otherwise
// keep failing at once as UNAVAILABLE for minutes after it was back, and
// the run would blame the target for the client's wait.
var reconnect = grpc.ConnectParams{
	Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second},
	MinConnectTimeout: 5 * time.Second,
}

// atError is an error at a step's key, as the test file's parse errors are.
func atError(at plan.Error, format string, args ...any) error {
	at.Msg = fmt.Sprintf(format, args...)
	return &at
}

// handshakes are TLS credentials that keep a failed handshake's error,
// which gRPC's status only paraphrases, so that the call's failure is
// classified as the HTTP path classifies TLS failures.
type handshakes struct {
	credentials.TransportCredentials
	failed func(*error)
}

// ClientHandshake runs the TLS handshake, keeping its error.
func (h handshakes) ClientHandshake(ctx context.Context, authority string, c net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn, info, err := h.TransportCredentials.ClientHandshake(ctx, authority, c)
	if err != nil {
		h.failed(&err)
	}
	return conn, info, err
}

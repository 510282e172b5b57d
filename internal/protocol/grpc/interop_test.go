package grpc

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/reflection"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// startInterop serves grpc-go's interop TestService (a server nobody here
// wrote), with reflection and health, on 127.0.0.1; TLS when creds is set.
func startInterop(t testing.TB, creds credentials.TransportCredentials, opts ...grpc.ServerOption) string {
	t.Helper()
	if creds != nil {
		opts = append(opts, grpc.Creds(creds))
	}
	srv := grpc.NewServer(opts...)
	testgrpc.RegisterTestServiceServer(srv, interop.NewTestServer())
	healthpb.RegisterHealthServer(srv, health.NewServer())
	reflection.Register(srv)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

func env() protocol.Env {
	return prototest.Env(5 * time.Second)
}

// protos is the interop service's .proto files, from grpc-proto.
func protos(g *plan.GRPC) {
	g.Protos = []string{"grpc/testing/test.proto"}
	g.ImportDir = []string{"testdata"}
}

func reflected(*plan.GRPC) {}

func msg(s string) []*tmpl.Template { return []*tmpl.Template{tmpl.Literal(s)} }

// call prepares s against target and runs it once.
func call(t *testing.T, target string, s plan.Session) (*prototest.VU, error) {
	t.Helper()
	s.GRPC.Target = target
	if s.MaxMessage == 0 {
		s.MaxMessage = plan.DefaultMaxMessage
	}
	st, err := Protocol{}.Prepare(&s, env())
	if err != nil {
		return nil, err
	}
	sess := st.NewSession()
	defer sess.Close()
	vu := prototest.NewVU()
	sess.Run(context.Background(), vu, time.Now())
	if len(vu.Samples) != 1 {
		t.Fatalf("%d samples, want 1", len(vu.Samples))
	}
	return vu, nil
}

func TestAgainstInteropServer(t *testing.T) {
	addr := startInterop(t, nil)
	isOK := plan.Check{ID: 0, From: plan.FromStatus, Op: plan.OpIn, Values: []string{"0"}}
	// ten zero bytes, in base64: the payload of a response_size (or size) of 10
	bodyLen := plan.Check{ID: 1, From: plan.FromJSON, Path: jsonpath.MustParse("$.payload.body"), Op: plan.OpEq, Values: []string{"AAAAAAAAAAAAAA=="}}
	tests := []struct {
		name      string
		source    func(*plan.GRPC)
		method    string
		messages  []*tmpl.Template
		timeout   time.Duration
		maxMsgs   int
		kind      sample.Kind
		errHas    string
		code      int
		sent, got int64
		checks    map[int32][2]int
	}{
		{"unary EmptyCall, descriptors from reflection", reflected, "grpc.testing.TestService/EmptyCall", msg(`{}`), 5 * time.Second, 0,
			sample.OK, "", 0, 1, 1, map[int32][2]int{0: {1, 0}}},
		{"unary UnaryCall with a payload size, from .proto files", protos, "grpc.testing.TestService/UnaryCall",
			msg(`{"response_size": 10}`), 5 * time.Second, 0, sample.OK, "", 0, 1, 1, map[int32][2]int{0: {1, 0}, 1: {1, 0}}},
		{"server streaming: three messages", reflected, "grpc.testing.TestService/StreamingOutputCall",
			msg(`{"response_parameters": [{"size": 10}, {"size": 10}, {"size": 10}]}`), 5 * time.Second, 0,
			sample.OK, "", 0, 1, 3, map[int32][2]int{0: {1, 0}, 1: {3, 0}}},
		{"server streaming ended by max_messages", protos, "grpc.testing.TestService/StreamingOutputCall",
			msg(`{"response_parameters": [{"size": 1}, {"size": 1}, {"size": 1}, {"size": 1}]}`), 5 * time.Second, 2,
			sample.OK, "", 0, 1, 2, nil},
		{"client streaming: sizes summed", protos, "grpc.testing.TestService/StreamingInputCall",
			[]*tmpl.Template{tmpl.Literal(`{"payload": {"body": "AAAA"}}`), tmpl.Literal(`{"payload": {"body": "AAAAAAAA"}}`)}, 5 * time.Second, 0,
			sample.OK, "", 0, 2, 1, map[int32][2]int{0: {1, 0}}},
		{"bidirectional: an answer per request", reflected, "grpc.testing.TestService/FullDuplexCall",
			[]*tmpl.Template{tmpl.Literal(`{"response_parameters": [{"size": 10}]}`), tmpl.Literal(`{"response_parameters": [{"size": 10}]}`)}, 5 * time.Second, 0,
			sample.OK, "", 0, 2, 2, map[int32][2]int{0: {1, 0}, 1: {2, 0}}},
		{"an error status: the code's own kind", protos, "grpc.testing.TestService/UnaryCall",
			msg(`{"response_status": {"code": 5, "message": "no such thing"}}`), 5 * time.Second, 0,
			sample.GRPCNotFound, "NOT_FOUND: no such thing", 5, 1, 0, map[int32][2]int{0: {0, 1}}},
		{"a slow stream past the deadline", reflected, "grpc.testing.TestService/StreamingOutputCall",
			msg(`{"response_parameters": [{"size": 1}, {"size": 1, "interval_us": 2000000}]}`), 300 * time.Millisecond, 0,
			sample.GRPCDeadlineExceeded, "DEADLINE_EXCEEDED", 4, 1, 1, nil},
		{"unimplemented method", reflected, "grpc.testing.TestService/UnimplementedCall", msg(`{}`), 5 * time.Second, 0,
			sample.GRPCUnimplemented, "UNIMPLEMENTED", 12, 1, 0, nil},
		{"a response past max_message_size: refused before it is read", protos, "grpc.testing.TestService/UnaryCall",
			msg(`{"response_size": 100000}`), 5 * time.Second, 0, sample.GRPCResourceExhausted, "RESOURCE_EXHAUSTED", 8, 1, 0, nil},
		{"a message that does not fit the method", protos, "grpc.testing.TestService/UnaryCall",
			msg(`{"no_such_field": 1}`), 5 * time.Second, 0, sample.Other, "request message 1 is not a grpc.testing.SimpleRequest", 1, 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &plan.GRPC{Method: tt.method, Messages: tt.messages}
			tt.source(g)
			s := plan.Session{Protocol: "grpc", Timeout: tt.timeout, MaxMessages: tt.maxMsgs, GRPC: g, Checks: []plan.Check{isOK}}
			if tt.checks[1] != [2]int{} {
				s.Checks = append(s.Checks, bodyLen)
			}
			vu, err := call(t, addr, s)
			if err != nil {
				t.Fatal(err)
			}
			r, f := vu.Samples[0], vu.Facts[0]
			if r.Kind != tt.kind || !strings.Contains(r.Err, tt.errHas) {
				t.Errorf("kind %v (%q), want %v containing %q", r.Kind, r.Err, tt.kind, tt.errHas)
			}
			if f.Code != tt.code || f.MsgsSent != tt.sent || f.MsgsReceived != tt.got {
				t.Errorf("code %d, sent %d, received %d; want %d, %d, %d", f.Code, f.MsgsSent, f.MsgsReceived, tt.code, tt.sent, tt.got)
			}
			if f.MsgsReceived > 0 && (f.FirstMsg <= 0 || f.FirstMsg > r.Duration) {
				t.Errorf("time to first message %v, call %v", f.FirstMsg, r.Duration)
			}
			for id, want := range tt.checks {
				if vu.Checks[id] != want {
					t.Errorf("check %d: %v passes/fails, want %v", id, vu.Checks[id], want)
				}
			}
		})
	}
}

// TestPrepareErrors: a method or file the descriptors do not have fails
// before the run, naming the step's key.
func TestPrepareErrors(t *testing.T) {
	addr := startInterop(t, nil)
	at := plan.Error{File: "test.yaml", Line: 7, Column: 13, Field: "scenarios.s.flow[0].method"}
	tests := []struct {
		name   string
		g      plan.GRPC
		errHas string
	}{
		{"no such method, reflection", plan.GRPC{Method: "grpc.testing.TestService/Nope", MethodAt: at},
			"test.yaml:7:13: scenarios.s.flow[0].method: service grpc.testing.TestService has no method Nope (it has: EmptyCall, UnaryCall"},
		{"no such service, reflection", plan.GRPC{Method: "grpc.testing.Nope/Call", MethodAt: at},
			"reflection (or give the step proto:): it does not know grpc.testing.Nope: "},
		{"no such service, protos", plan.GRPC{Method: "grpc.testing.Nope/Call", MethodAt: at, Protos: []string{"grpc/testing/test.proto"}, ImportDir: []string{"testdata"}},
			"no service grpc.testing.Nope in grpc/testing/test.proto"},
		{"a missing .proto file", plan.GRPC{Method: "a.B/C", ProtoAt: plan.Error{File: "test.yaml", Line: 8, Column: 12, Field: "scenarios.s.flow[0].proto"},
			Protos: []string{"nope.proto"}, ImportDir: []string{"testdata"}}, "test.yaml:8:12: scenarios.s.flow[0].proto: "},
		{"a broken .proto file names its line", plan.GRPC{Method: "a.B/C", Protos: []string{"broken.proto"}, ImportDir: []string{"testdata/bad"}},
			"broken.proto:6:1: syntax error"},
		{"two messages for a unary method", plan.GRPC{Method: "grpc.testing.TestService/EmptyCall", MethodAt: at,
			Messages: append(msg(`{}`), msg(`{}`)...)}, "takes one request message, and the step gives 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g
			g.Target = addr
			s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage, GRPC: &g}
			_, err := Protocol{}.Prepare(&s, env())
			if err == nil || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("error %v, want one containing %q", err, tt.errHas)
			}
		})
	}
}

// TestProtoPath: a .proto written as an absolute path is found.
func TestProtoPath(t *testing.T) {
	abs, err := filepath.Abs("testdata/grpc/testing/empty.proto")
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{"/elsewhere"}
	if got := importName(abs, &dirs); got != "empty.proto" || dirs[1] != filepath.Dir(abs) {
		t.Errorf("importName = %q, dirs %v", got, dirs)
	}
}

// TestInterrupted: a call cut off by the run's end is interrupted, not a
// status's failure.
func TestInterrupted(t *testing.T) {
	addr := startInterop(t, nil)
	s := plan.Session{Protocol: "grpc", Timeout: 10 * time.Second, MaxMessage: plan.DefaultMaxMessage,
		Checks: []plan.Check{{ID: 0, From: plan.FromBody, Op: plan.OpContains, Values: []string{""}}},
		GRPC: &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/StreamingOutputCall",
			Messages: msg(`{"response_parameters": [{"size": 1}, {"size": 1, "interval_us": 2000000}]}`)}}
	st, err := Protocol{}.Prepare(&s, env())
	if err != nil {
		t.Fatal(err)
	}
	sess := st.NewSession()
	defer sess.Close()
	ctx, cancel := context.WithCancel(context.Background())
	vu := prototest.NewVU()
	vu.OnCheck = cancel // the run ends once the first message arrived
	sess.Run(ctx, vu, time.Now())
	if r, f := vu.Samples[0], vu.Facts[0]; r.Kind != sample.Interrupted || f.MsgsReceived != 1 || f.Code != 1 {
		t.Errorf("kind %v (%q), received %d, code %d; want interrupted after 1 message, CANCELLED", r.Kind, r.Err, f.MsgsReceived, f.Code)
	}
}

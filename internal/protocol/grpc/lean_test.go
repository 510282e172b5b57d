package grpc

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/loadlens/loadlens/internal/engine/h2"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// hangOn makes the interop server answer a call with x-hang metadata only
// when its deadline passed: a slow server, for DEADLINE_EXCEEDED.
func hangOn(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	if md, _ := metadata.FromIncomingContext(ctx); len(md.Get("x-hang")) > 0 {
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	return h(ctx, req)
}

// leanCase is one unary call run through both clients.
type leanCase struct {
	name, method, message string
	headers               []plan.Header
	timeout               time.Duration
	maxMessage            int64
	kind                  sample.Kind
	// differs says what of the clients' samples may differ: "racy", the
	// message, metadata and bytes of a call past its deadline (the client's
	// deadline, or the server's answer at its own, comes first, in either
	// client, and its late frames count in the next call or not;
	// TestLeanDeadlineKeepsConnection checks the connection is kept);
	// "nothing sent", the bytes of a message that does not fit
	// (sent by neither, but grpc-go has opened the stream).
	differs string
}

func leanCases() []leanCase {
	const unary, empty = "grpc.testing.TestService/UnaryCall", "grpc.testing.TestService/EmptyCall"
	big := base64.StdEncoding.EncodeToString(make([]byte, 200<<10)) // past the server's first windows (64 KiB)
	echo := []plan.Header{{Name: "X-Grpc-Test-Echo-Initial", Value: tmpl.Literal("vu-7")},
		{Name: "X-Grpc-Test-Echo-Trailing-Bin", Value: tmpl.Literal("\x00\x01bin")}}
	cases := []leanCase{
		{name: "OK, empty", method: empty, message: `{}`},
		{name: "OK, a payload", method: unary, message: `{"response_size": 10}`},
		{name: "a large message each way", method: unary, message: `{"response_size": 60000, "payload": {"body": "` + big + `"}}`},
		{name: "metadata echoed in headers and trailers", method: unary, message: `{"response_size": 5}`, headers: echo},
		{name: "deadline exceeded", method: unary, message: `{}`, timeout: 300 * time.Millisecond, kind: sample.GRPCDeadlineExceeded, differs: "racy",
			headers: []plan.Header{{Name: "x-hang", Value: tmpl.Literal("1")}}},
		{name: "past max_message_size", method: unary, message: `{"response_size": 2000}`, maxMessage: 1000, kind: sample.GRPCResourceExhausted},
		{name: "Trailers-Only: unimplemented method", method: "grpc.testing.TestService/UnimplementedCall", message: `{}`, kind: sample.GRPCUnimplemented},
		{name: "a message that does not fit", method: unary, message: `{"nope": 1}`, kind: sample.Other, differs: "nothing sent"},
	}
	for code := 1; code <= 16; code++ { // each error status, its message percent-encoded on the wire
		cases = append(cases, leanCase{name: fmt.Sprintf("status %d", code), method: unary, headers: echo,
			message: fmt.Sprintf(`{"response_status": {"code": %d, "message": "wrong: 100%% ünïcode\nline"}}`, code), kind: sample.KindOfGRPC(code)})
	}
	return cases
}

// TestLeanMatchesGRPCGo runs the same unary calls through grpc-go and the
// lean client against grpc-go's interop server, over h2c and TLS, and
// compares their samples: kind, message, status, messages, checks and
// extractions, bytes of the same order.
func TestLeanMatchesGRPCGo(t *testing.T) {
	cert, pool := selfSigned(t)
	plain := startInterop(t, nil, grpc.UnaryInterceptor(hangOn))
	secure := startInterop(t, credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}}), grpc.UnaryInterceptor(hangOn))
	checks := []plan.Check{
		{ID: 0, From: plan.FromStatus, Op: plan.OpIn, Values: []string{"0"}},
		{ID: 1, From: plan.FromHeader, Header: "X-Grpc-Test-Echo-Initial", Op: plan.OpEq, Values: []string{"vu-7"}},
		{ID: 2, From: plan.FromHeader, Header: "X-Grpc-Test-Echo-Trailing-Bin", Op: plan.OpEq, Values: []string{"\x00\x01bin"}},
		{ID: 3, From: plan.FromJSON, Path: mustPath("$.payload.type"), Op: plan.OpEq, Values: []string{"COMPRESSABLE"}},
	}
	extract := []plan.Extract{{Var: 0, From: plan.FromHeader, Header: "Content-Type", Check: -1, Default: ptr("none")},
		{Var: 1, From: plan.FromRegex, Regex: mustRegex(`"body":\s*"(\w{0,8})`), Check: -1, Default: ptr("none")}}
	for _, tc := range leanCases() {
		for _, tlsOn := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/tls=%v", tc.name, tlsOn), func(t *testing.T) {
				s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage, Headers: tc.headers,
					Checks: checks, Extract: extract, GRPC: &plan.GRPC{Target: plain, TLS: tlsOn, Method: tc.method, Messages: msg(tc.message)}}
				if tlsOn {
					s.GRPC.Target = secure
				}
				if tc.timeout > 0 {
					s.Timeout = tc.timeout
				}
				if tc.maxMessage > 0 {
					s.MaxMessage = tc.maxMessage
				}
				protos(s.GRPC)
				viaGo, viaLean := runBoth(t, s, pool, 3)
				if echoed := viaLean[0].checks[1][0] == 1 && viaLean[0].checks[2][0] == 1; echoed != (len(tc.headers) == 2) {
					t.Errorf("metadata echoed in headers and trailers: %v, want %v (checks %v)", echoed, len(tc.headers) == 2, viaLean[0].checks)
				}
				var goSent, leanSent, goGot, leanGot int64
				for i := range viaGo {
					compareCalls(t, i, viaGo[i], viaLean[i], tc.kind, tc.differs)
					goSent, leanSent = goSent+viaGo[i].r.Sent, leanSent+viaLean[i].r.Sent
					goGot, leanGot = goGot+viaGo[i].r.Received, leanGot+viaLean[i].r.Received
				}
				if tc.differs == "" && (!sameOrder(leanSent, goSent) || !sameOrder(leanGot, goGot)) {
					t.Errorf("lean sent %d, received %d B in %d calls; grpc-go %d, %d B", leanSent, leanGot, len(viaGo), goSent, goGot)
				}
			})
		}
	}
}

// callSeen is what a call's sample and VU say, for comparison.
type callSeen struct {
	r      sample.Request
	f      sample.Facts
	checks map[int32][2]int
	vars   string
}

// runBoth runs s n times through each client, each with a VU of its own.
func runBoth(t *testing.T, s plan.Session, pool *x509.CertPool, n int) (viaGo, viaLean []callSeen) {
	t.Helper()
	for _, lean := range []bool{false, true} {
		e := env()
		e.TLS = func() *tls.Config { return &tls.Config{RootCAs: pool} }
		st, err := Protocol{}.Prepare(&s, e)
		if err != nil {
			t.Fatal(err)
		}
		st.(*step).lean = lean
		sess := st.NewSession()
		if (sess.(*session).lean != nil) != lean {
			t.Fatalf("lean path %v, want %v", sess.(*session).lean != nil, lean)
		}
		var seen []callSeen
		for range n {
			vu := prototest.NewVU()
			sess.Run(context.Background(), vu, time.Now())
			seen = append(seen, callSeen{vu.Samples[0], vu.Facts[0], vu.Checks, strings.Join(vu.TC.Vars[:2], "|")})
		}
		sess.Close()
		if lean {
			viaLean = seen
		} else {
			viaGo = seen
		}
	}
	return viaGo, viaLean
}

// compareCalls compares the i-th call's samples of both clients.
// Bytes are compared over all calls: grpc-go's writer goroutine may count
// a call's request after its response, in the next call, and what arrives
// between calls (a TLS session ticket) counts in either.
func compareCalls(t *testing.T, i int, g, l callSeen, kind sample.Kind, differs string) {
	t.Helper()
	if g.r.Kind != kind {
		t.Errorf("call %d: grpc-go's kind %v (%q), want %v", i, g.r.Kind, g.r.Err, kind)
	}
	if l.r.Kind != g.r.Kind || differs != "racy" && l.r.Err != g.r.Err {
		t.Errorf("call %d: lean kind %v (%q), grpc-go's %v (%q)", i, l.r.Kind, l.r.Err, g.r.Kind, g.r.Err)
	}
	if l.f.Code != g.f.Code || l.f.MsgsSent != g.f.MsgsSent || l.f.MsgsReceived != g.f.MsgsReceived {
		t.Errorf("call %d: lean code %d, sent %d, received %d; grpc-go's %d, %d, %d", i, l.f.Code, l.f.MsgsSent, l.f.MsgsReceived, g.f.Code, g.f.MsgsSent, g.f.MsgsReceived)
	}
	if fmt.Sprint(l.checks) != fmt.Sprint(g.checks) || differs != "racy" && l.vars != g.vars {
		t.Errorf("call %d: lean checks %v, extracted %q; grpc-go's %v, %q", i, l.checks, l.vars, g.checks, g.vars)
	}
	if (l.f.FirstMsg > 0) != (g.f.FirstMsg > 0) || l.f.FirstMsg > l.r.Duration || l.r.Duration <= 0 || l.f.Session <= 0 {
		t.Errorf("call %d: lean first message %v of %v (session %v); grpc-go's %v", i, l.f.FirstMsg, l.r.Duration, l.f.Session, g.f.FirstMsg)
	}
}

// sameOrder reports byte counts both zero or within a factor of two (the
// clients' framing differs: grpc-go's user-agent, PINGs, window updates).
func sameOrder(a, b int64) bool {
	if a == 0 || b == 0 {
		return a == b
	}
	return a <= 2*b && b <= 2*a
}

// TestInterruptedUnary: a unary call cut off by the run's end is
// interrupted and CANCELLED through either client, and the lean client's
// next call, under a new run context, goes out again.
func TestInterruptedUnary(t *testing.T) {
	arrived := make(chan struct{}, 4)
	tell := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if md, _ := metadata.FromIncomingContext(ctx); len(md.Get("x-hang")) > 0 {
			arrived <- struct{}{}
		}
		return hangOn(ctx, req, info, h)
	}
	addr := startInterop(t, nil, grpc.UnaryInterceptor(tell))
	for _, lean := range []bool{false, true} {
		t.Run(fmt.Sprintf("lean=%v", lean), func(t *testing.T) {
			s := plan.Session{Protocol: "grpc", Timeout: 10 * time.Second, MaxMessage: plan.DefaultMaxMessage,
				Headers: []plan.Header{{Name: "x-hang", Value: tmpl.Literal("1")}},
				GRPC:    &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/UnaryCall", Messages: msg(`{}`)}}
			protos(s.GRPC)
			st, err := Protocol{}.Prepare(&s, env())
			if err != nil {
				t.Fatal(err)
			}
			st.(*step).lean = lean
			sess := st.NewSession()
			defer sess.Close()
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-arrived; cancel() }() // the run ends once the server holds the call
			vu := prototest.NewVU()
			sess.Run(ctx, vu, time.Now())
			if r, f := vu.Samples[0], vu.Facts[0]; r.Kind != sample.Interrupted || f.Code != 1 || f.MsgsSent != 1 {
				t.Errorf("kind %v (%q), code %d, sent %d; want interrupted, CANCELLED, 1 sent", r.Kind, r.Err, f.Code, f.MsgsSent)
			}
			ctx2, cancel2 := context.WithCancel(context.Background())
			defer cancel2()
			s.Headers = nil
			sess.Run(ctx2, vu, time.Now())
			if r := vu.Samples[1]; r.Kind != sample.OK {
				t.Errorf("the next run's call: kind %v (%q), want OK", r.Kind, r.Err)
			}
		})
	}
}

// writeCounter counts a connection's writes.
type writeCounter struct {
	net.Conn
	writes *int
}

func (w writeCounter) Write(p []byte) (int, error) {
	*w.writes++
	return w.Conn.Write(p)
}

// TestLeanWritesACall: a unary call against grpc-go's server (which
// PINGs at every request's DATA) takes its write and at most one for the
// answers to the server's frames.
func TestLeanWritesACall(t *testing.T) {
	const calls = 20
	addr := startInterop(t, nil)
	s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage,
		GRPC: &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/UnaryCall", Messages: msg(`{"response_size": 10}`)}}
	protos(s.GRPC)
	st, err := Protocol{}.Prepare(&s, env())
	if err != nil {
		t.Fatal(err)
	}
	st.(*step).lean = true
	sess := st.NewSession().(*session)
	defer sess.Close()
	writes := 0
	countWrites(sess, &writes, nil)
	vu := prototest.NewVU()
	for range calls {
		sess.Run(context.Background(), vu, time.Now())
	}
	for _, r := range vu.Samples {
		if r.Kind != sample.OK {
			t.Fatalf("kind %v (%q)", r.Kind, r.Err)
		}
	}
	// A PING that came before the response is answered before the read
	// waits, so how many calls take two writes is timing's; the h2
	// package's TestPingWithResponseAckedWithNextRequest pins the rest.
	if limit := 2*calls + 2; writes > limit { // the preface and the SETTINGS ack, then 2 a call at most
		t.Errorf("%d writes for %d calls, want at most %d", writes, calls, limit)
	}
}

// countWrites makes sess's lean client count its connections' writes and
// its dials.
func countWrites(sess *session, writes, dials *int) {
	cfg := sess.lean.cfg
	dial := cfg.Dial
	cfg.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if dials != nil {
			*dials++
		}
		return writeCounter{c, writes}, nil
	}
	sess.lean.cfg, sess.lean.c = cfg, h2.New(cfg)
}

// TestLeanDeadlineKeepsConnection: a call past its deadline resets its
// stream and the next call goes on the same connection, as grpc-go's do.
func TestLeanDeadlineKeepsConnection(t *testing.T) {
	addr := startInterop(t, nil, grpc.UnaryInterceptor(hangOn))
	s := plan.Session{Protocol: "grpc", Timeout: 100 * time.Millisecond, MaxMessage: plan.DefaultMaxMessage,
		Headers: []plan.Header{{Name: "x-hang", Value: tmpl.Literal("1")}},
		GRPC:    &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/UnaryCall", Messages: msg(`{}`)}}
	protos(s.GRPC)
	st, err := Protocol{}.Prepare(&s, env())
	if err != nil {
		t.Fatal(err)
	}
	st.(*step).lean = true
	sess := st.NewSession().(*session)
	defer sess.Close()
	var writes, dials int
	countWrites(sess, &writes, &dials)
	vu := prototest.NewVU()
	sess.Run(context.Background(), vu, time.Now())
	s.Headers, s.Timeout = nil, 5*time.Second
	sess.Run(context.Background(), vu, time.Now())
	if k0, k1 := vu.Samples[0].Kind, vu.Samples[1].Kind; k0 != sample.GRPCDeadlineExceeded || k1 != sample.OK || dials != 1 {
		t.Errorf("kinds %v, %v; %d dials; want deadline exceeded, OK, 1 dial", k0, k1, dials)
	}
}

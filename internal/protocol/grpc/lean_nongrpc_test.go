package grpc

import (
	"net"
	"net/http"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// startOdd serves h2c answers that grpc-go's server never gives, chosen by
// the call's x-case metadata: a non-gRPC answer, a status missing, no
// trailers, two messages or none, a length past the bound.
func startOdd(t *testing.T) string {
	t.Helper()
	empty := []byte{0, 0, 0, 0, 0} // an empty message: a valid SimpleResponse
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		grpcAnswer := func(trailers string) {
			w.Header().Set("Content-Type", "application/grpc")
			if trailers != "" {
				w.Header().Set("Trailer", trailers)
			}
		}
		switch r.Header.Get("X-Case") {
		case "404":
			http.Error(w, "no such thing", http.StatusNotFound)
		case "text":
			w.Write([]byte("hello"))
		case "no status":
			grpcAnswer("Grpc-Message")
			w.Write(empty)
			w.Header().Set("Grpc-Message", "lost")
		case "no trailers":
			grpcAnswer("")
			w.Write(empty)
		case "two messages":
			grpcAnswer("Grpc-Status")
			w.Write(append(empty, empty...))
			w.Header().Set("Grpc-Status", "0")
		case "no message":
			grpcAnswer("Grpc-Status")
			w.WriteHeader(http.StatusOK)
			w.Header().Set("Grpc-Status", "0")
		case "past the bound":
			grpcAnswer("Grpc-Status")
			w.Write([]byte{0, 0, 1, 0, 0})
			w.Header().Set("Grpc-Status", "0")
		case "a message, then an error":
			grpcAnswer("Grpc-Status, Grpc-Message")
			w.Write(empty)
			w.Header().Set("Grpc-Status", "3")
			w.Header().Set("Grpc-Message", "bad%20input%3A%20%E2%9C%97")
		case "a bad status":
			grpcAnswer("Grpc-Status")
			w.Write(empty)
			w.Header().Set("Grpc-Status", "x")
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: h, Protocols: &p}
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestLeanOddAnswers: answers grpc-go's server never gives are read by the
// lean client as grpc-go's client reads them.
func TestLeanOddAnswers(t *testing.T) {
	addr := startOdd(t)
	for _, tc := range []struct {
		name string
		kind sample.Kind
	}{
		{"404", sample.GRPCUnimplemented}, {"text", sample.GRPCUnknown}, {"no status", sample.GRPCUnknown},
		{"no trailers", sample.GRPCInternal}, {"two messages", sample.GRPCInternal}, {"no message", sample.GRPCInternal},
		{"past the bound", sample.GRPCResourceExhausted}, {"a message, then an error", sample.GRPCInvalidArgument},
		{"a bad status", sample.GRPCUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := plan.Session{Protocol: "grpc", Timeout: 5e9, MaxMessage: 1000,
				Headers: []plan.Header{{Name: "x-case", Value: tmpl.Literal(tc.name)}},
				GRPC:    &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/UnaryCall", Messages: msg(`{}`)}}
			protos(s.GRPC)
			viaGo, viaLean := runBoth(t, s, nil, 2)
			for i := range viaGo {
				// bytes not compared: grpc-go resets a stream it gave up on,
				// and counts what the server sends back for it
				compareCalls(t, i, viaGo[i], viaLean[i], tc.kind, "bytes")
			}
		})
	}
}

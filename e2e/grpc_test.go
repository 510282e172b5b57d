package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/reflection"
)

// TestGRPCThroughTheBinary runs grpc: steps through the real binary
// against grpc-go's interop server (with reflection and health): a unary
// call described by .proto files with metadata, checks and an extraction;
// a server-streaming call described by reflection; a call answered
// NOT_FOUND whose message carries the extracted value. Thresholds on the
// gRPC figures gate the exit code (an avg of grpc_req_duration: a
// percentile would fail, as a third of the calls are NOT_FOUND by design
// and a failed call is no fast one).
func TestGRPCThroughTheBinary(t *testing.T) {
	srv := startGRPCInterop(t)
	protos, err := filepath.Abs("../internal/protocol/grpc/testdata")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	test := `name: grpc
scenarios:
  calls:
    iterations: 4
    vus: 2
    flow:
      - grpc: grpc://{{addr}}
        method: grpc.testing.TestService/UnaryCall
        proto: grpc/testing/test.proto
        import_paths: [{{protos}}]
        metadata: {x-grpc-test-echo-initial: "vu{{ vu }}"}
        message: {response_size: 3}
        timeout: 10s
        check: [{status: OK}, {json: $.payload.type, eq: COMPRESSABLE}]
        extract: {echoed: {header: x-grpc-test-echo-initial}}
      - grpc: grpc://{{addr}}
        method: grpc.testing.TestService/StreamingOutputCall
        message: {response_parameters: [{size: 1}, {size: 2}]}
        timeout: 10s
        check: {status: OK}
      - grpc: grpc://{{addr}}
        method: grpc.testing.TestService/UnaryCall
        name: not found
        message: {response_status: {code: 5, message: "{{ echoed }} not found"}}
        timeout: 10s
        check: {status: NOT_FOUND}
thresholds:
  grpc_req_duration: ["avg < 10s"]
  grpc_msgs_received: ["%s"]
  http_req_failed{kind:grpc_not_found}: ["rate < 0.34"]
  checks: ["rate == 1"]
`
	test = regexp.MustCompile(`\{\{addr\}\}`).ReplaceAllString(test, srv.addr)
	test = regexp.MustCompile(`\{\{protos\}\}`).ReplaceAllString(test, protos)
	for _, tc := range []struct {
		expr string
		code int
	}{{"count == 12", 0}, {"count > 12", 99}} { // 4 iterations: 1 + 2 messages received, none from NOT_FOUND
		srv.reset()
		if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, tc.expr)), 0o644); err != nil {
			t.Fatal(err)
		}
		res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--results", "results-"+fmt.Sprint(tc.code))
		if res.code != tc.code {
			t.Fatalf("grpc_msgs_received %s: exit %d, want %d\n%s%s", tc.expr, res.code, tc.code, res.stdout, res.stderr)
		}
		msgs := srv.statuses()
		if len(msgs) != 4 {
			t.Errorf("the server saw %d NOT_FOUND calls, want 4", len(msgs))
		}
		for _, m := range msgs {
			if !regexp.MustCompile(`^vu[12] not found$`).MatchString(m) {
				t.Errorf("a NOT_FOUND call carried %q: the metadata echoed and extracted should be in it", m)
			}
		}
	}
}

// grpcInterop is grpc-go's interop server (with reflection and health) on
// 127.0.0.1, keeping the messages of the error statuses it was asked for.
type grpcInterop struct {
	addr string
	mu   sync.Mutex
	msgs []string
}

func startGRPCInterop(t *testing.T) *grpcInterop {
	t.Helper()
	g := &grpcInterop{}
	record := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if r, ok := req.(*testgrpc.SimpleRequest); ok && r.GetResponseStatus().GetCode() != 0 {
			g.mu.Lock()
			g.msgs = append(g.msgs, r.GetResponseStatus().GetMessage())
			g.mu.Unlock()
		}
		return h(ctx, req)
	}
	srv := grpc.NewServer(grpc.UnaryInterceptor(record))
	testgrpc.RegisterTestServiceServer(srv, interop.NewTestServer())
	healthpb.RegisterHealthServer(srv, health.NewServer())
	reflection.Register(srv)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	g.addr = lis.Addr().String()
	return g
}

func (g *grpcInterop) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.msgs = nil
}

func (g *grpcInterop) statuses() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.msgs...)
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A distributed gRPC run sends its .proto files, their imports too, to
// the agents, which read them beside their copy of the test (before, the
// run failed "cannot read .proto file" on the agents): the messages are
// built from them (a payload field checked, an error status asked for);
// .proto files outside the test's directory are refused before any call,
// naming the rule.
func TestGRPCProtosReachTheAgents(t *testing.T) {
	srv := startGRPCInterop(t)
	dir := t.TempDir()
	src := "../internal/protocol/grpc/testdata/grpc/testing"
	dst := filepath.Join(dir, "protos", "grpc", "testing")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"test.proto", "messages.proto", "empty.proto"} { // test.proto imports the other two
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside, err := filepath.Abs("../internal/protocol/grpc/testdata")
	if err != nil {
		t.Fatal(err)
	}
	test := func(importPath string) string {
		return `name: grpc-dist
scenarios:
  calls:
    iterations: 6
    vus: 2
    flow:
      - grpc: grpc://` + srv.addr + `
        method: grpc.testing.TestService/UnaryCall
        proto: grpc/testing/test.proto
        import_paths: [` + importPath + `]
        message: {response_size: 3}
        timeout: 10s
        check: [{status: OK}, {json: $.payload.type, eq: COMPRESSABLE}]
      - grpc: grpc://` + srv.addr + `
        method: grpc.testing.TestService/UnaryCall
        proto: grpc/testing/test.proto
        import_paths: [` + importPath + `]
        message: {response_status: {code: 5, message: "vu{{ vu }}"}}
        timeout: 10s
        check: {status: NOT_FOUND}
thresholds:
  checks: ["rate == 1"]
`
	}
	for _, tc := range []struct {
		name, importPath string
		code, calls      int
		stderr           string
	}{
		{"beside the test", "protos", 0, 6, ""},
		{"outside the test's directory", outside, 2, 0, "must be below the test file's directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.reset()
			if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test(tc.importPath)), 0o644); err != nil {
				t.Fatal(err)
			}
			r := loadlens(t, dir, "run", "t.yaml", "--local-agents", "2", "--quiet", "--no-dashboard", "--results", "results")
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("exit %d, want %d with %q\n%s%s", r.code, tc.code, tc.stderr, r.stdout, r.stderr)
			}
			if got := len(srv.statuses()); got != tc.calls {
				t.Errorf("the server answered %d calls, want %d", got, tc.calls)
			}
		})
	}
}

package plan

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

func TestParseGRPC(t *testing.T) {
	src := head + `      - grpc: grpcs://api.example.com:443
        method: shop.Cart/Add
        proto: [protos/cart.proto]
        import_paths: [protos, vendor]
        metadata: {authorization: "Bearer {{ vu }}"}
        message: {sku: "a-{{ vu }}", count: 2}
        timeout: 2s
        max_message_size: 1MiB
        check:
          - status: [OK, not_found, 6]
          - json: $.total
            gt: 0
          - header: x-served-by
            exists: true
        extract:
          cart: {json: $.id}
`
	dir := filesIn(t, "protos/protos/cart.proto")
	p, err := Parse(filepath.Join(dir, "t.yaml"), []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := p.Scenarios[0].Flow[0]
	s, g := st.Session, st.Session.GRPC
	if st.Kind != SessionStep || s.Protocol != "grpc" || g == nil {
		t.Fatalf("step %+v is not a grpc session", st)
	}
	if g.Target != "api.example.com:443" || !g.TLS || g.Method != "shop.Cart/Add" || len(g.Protos) != 1 || g.Protos[0] != "protos/cart.proto" ||
		len(g.ImportDir) != 2 || g.ImportDir[0] != filepath.Join(dir, "protos") || s.Timeout != 2*time.Second || s.MaxMessage != 1<<20 {
		t.Errorf("session = %+v, grpc = %+v", s, g)
	}
	var tc tmpl.Context
	tc.VU = 7
	if got := string(g.Messages[0].Render(nil, &tc)); got != `{"sku":"a-7","count":2}` {
		t.Errorf("message renders %s", got)
	}
	if len(s.Headers) != 1 || s.Headers[0].Name != "Authorization" {
		t.Errorf("metadata = %+v", s.Headers)
	}
	c := s.Checks[0]
	if c.Name != "status in [OK, NOT_FOUND, ALREADY_EXISTS]" || strings.Join(c.Values, ",") != "0,5,6" || len(s.Checks) != 3 {
		t.Errorf("checks = %+v", s.Checks)
	}
	if len(s.Extract) != 1 || s.Extract[0].Check < 0 {
		t.Errorf("extract = %+v", s.Extract)
	}
	ep := p.Layout.Endpoints[s.Endpoint]
	if ep.Name != "GRPC shop.Cart/Add" || ep.Protocol != "grpc" || ep.Plain || ep.Session { // a call answered, not a session held
		t.Errorf("endpoint = %+v", ep)
	}
	if s.MaxMessages = 100; s.Longest() != s.Timeout {
		t.Errorf("Longest = %v, want the deadline %v", s.Longest(), s.Timeout)
	}
	if g.MethodAt.Line != 8 || g.ProtoAt.Line != 9 || g.ProtoAt.Field != "scenarios.s.flow[0].proto" {
		t.Errorf("positions: method %+v, proto %+v", g.MethodAt, g.ProtoAt)
	}
}

func TestParseGRPCInvalid(t *testing.T) {
	tests := []struct {
		name, step, want string
	}{
		{"no method", "      - grpc: 127.0.0.1:50051\n", `7:9: scenarios.s.flow[0]: missing key "method": the method to call, like package.Service/Method`},
		{"bad method", "      - grpc: 127.0.0.1:50051\n        method: Add\n", `8:17: scenarios.s.flow[0].method: bad method "Add": expected package.Service/Method`},
		{"bad target", "      - grpc: http://127.0.0.1:50051\n        method: a.B/C\n", `7:15: scenarios.s.flow[0].grpc: bad target "http://127.0.0.1:50051": the scheme is grpc:// (plaintext) or grpcs:// (TLS)`},
		{"no port", "      - grpc: grpc://localhost\n        method: a.B/C\n", `7:15: scenarios.s.flow[0].grpc: bad target "grpc://localhost": expected host:port, like grpc://127.0.0.1:50051`},
		{"unknown status", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        check: {status: NOPE}\n",
			`9:25: scenarios.s.flow[0].check.status: unknown gRPC status "NOPE" (known: OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED)`},
		{"status with a comparison", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        check: {status: OK, eq: 1}\n", `9:29: scenarios.s.flow[0].check.eq: "eq" does not apply to a status check (it goes with json: or header:)`},
		{"status and json in one check", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        check: [{json: $.a, eq: 1}, {status: OK, json: $.b, eq: 2}]\n", `9:50: scenarios.s.flow[0].check[1].json: a check tests one thing: status and json both given; split it into two checks`},
		{"not a check", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        check: 5\n", `9:16: scenarios.s.flow[0].check: expected a list of checks like [{status: OK}], got a number 5`},
		{"message and messages", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        message: {}\n        messages: [{}]\n",
			"10:9: scenarios.s.flow[0].messages: give message: (one) or messages: (a list), not both"},
		{"import_paths without proto", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        import_paths: [p]\n",
			"9:9: scenarios.s.flow[0].import_paths: import_paths: goes with proto: (without proto:, the server's reflection describes the method)"},
		{"proto and protoset", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        proto: a.proto\n        protoset: a.protoset\n",
			"10:9: scenarios.s.flow[0].protoset: give proto: or protoset:, not both"},
		{"unknown status expected", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        expect_status: [OK, NOT_FOND]\n",
			`9:29: scenarios.s.flow[0].expect_status[1]: unknown gRPC status "NOT_FOND" (known: OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED)`},
		{"an HTTP status expected", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        expect_status: 404\n",
			`9:24: scenarios.s.flow[0].expect_status: unknown gRPC status "404" (known: OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED)`},
		{"no status expected", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        expect_status: []\n",
			`9:24: scenarios.s.flow[0].expect_status: needs at least one gRPC status, like [OK, NOT_FOUND]`},
		{"an empty status check", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        check: {status: []}\n",
			`9:25: scenarios.s.flow[0].check.status: needs at least one gRPC status, like [OK, NOT_FOUND]`},
		{"unknown key", "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        body: x\n",
			`9:9: scenarios.s.flow[0].body: unknown key "body" (allowed: grpc, method, name, proto, import_paths, protoset, metadata, message, messages, timeout, max_messages, max_message_size, expect_status, check, extract)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(head+tt.step), nil)
			var es yamldoc.Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is %T, want Errors: %v", err, err)
			}
			want := "t.yaml:" + strings.ReplaceAll(tt.want, "\n", "\nt.yaml:")
			if got := err.Error(); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestParseGRPCExpectStatus: expect_status: takes gRPC statuses by name
// (any case) or number, one or a list; without it, nil (OK alone).
func TestParseGRPCExpectStatus(t *testing.T) {
	tests := []struct {
		yaml string
		want []int
	}{
		{"", nil},
		{"        expect_status: NOT_FOUND\n", []int{5}},
		{"        expect_status: [OK, not_found, 6]\n", []int{0, 5, 6}},
		{"        expect_status: [5]\n", []int{5}},
	}
	for _, tt := range tests {
		p, err := Parse("t.yaml", []byte(head+"      - grpc: 127.0.0.1:1\n        method: a.B/C\n"+tt.yaml), nil)
		if err != nil {
			t.Fatalf("%q: %v", tt.yaml, err)
		}
		if got := p.Scenarios[0].Flow[0].Session.GRPC.ExpectStatus; !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("%q: expect_status %v, want %v", tt.yaml, got, tt.want)
		}
	}
}

func TestParseGRPCProtoset(t *testing.T) {
	src := head + "      - grpc: 127.0.0.1:50051\n        method: a.B/C\n        protoset: api/a.protoset\n"
	dir := filesIn(t, "api/a.protoset")
	p, err := Parse(filepath.Join(dir, "t.yaml"), []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := p.Scenarios[0].Flow[0].Session.GRPC
	if g.Protoset != filepath.Join(dir, "api", "a.protoset") || len(g.Protos) != 0 || g.ProtoAt.Field != "scenarios.s.flow[0].protoset" {
		t.Errorf("grpc = %+v", g)
	}
}

// filesIn returns a new directory holding empty files at the given paths.
func filesIn(t *testing.T, paths ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestParseGRPCMissingFiles: a proto: or protoset: file that is not there
// is an error at its line, before the run (validate said ok, and the run
// started, ticked the step's checks that never ran, and failed); the path
// is resolved as the run reads it, relative to the test file or to
// import_paths:.
func TestParseGRPCMissingFiles(t *testing.T) {
	dir := filesIn(t, "here.proto", "protos/shop/cart.proto", "vendor/v.proto", "sets/a.protoset")
	tests := []struct {
		name, keys, want string // want: "" parses
	}{
		{"beside the test", "proto: here.proto", ""},
		{"under import paths", "proto: [shop/cart.proto, v.proto]\n        import_paths: [protos, vendor]", ""},
		{"absolute", "proto: " + filepath.Join(dir, "here.proto"), ""},
		{"protoset", "protoset: sets/a.protoset", ""},
		{"missing beside the test", "proto: ../nowhere/route_guide.proto",
			"9:16: scenarios.s.flow[0].proto: cannot read .proto file " + filepath.Join(dir, "../nowhere/route_guide.proto") +
				": no such file or directory (without import_paths:, proto: is relative to the test file)"},
		{"written with its import path", "proto: protos/shop/cart.proto\n        import_paths: [protos]",
			"9:16: scenarios.s.flow[0].proto: cannot read .proto file " + filepath.Join(dir, "protos/protos/shop/cart.proto") +
				": no such file or directory (proto: is relative to import_paths:)"},
		{"in no import path", "proto: [v.proto, gone.proto]\n        import_paths: [protos, vendor]",
			"9:26: scenarios.s.flow[0].proto[1]: cannot find .proto file gone.proto in the import paths " +
				filepath.Join(dir, "protos") + ", " + filepath.Join(dir, "vendor")},
		{"a directory", "proto: protos",
			"9:16: scenarios.s.flow[0].proto: cannot read .proto file " + filepath.Join(dir, "protos") +
				": not a regular file (without import_paths:, proto: is relative to the test file)"},
		{"absolute missing", "proto: /nonexistent/a.proto",
			"9:16: scenarios.s.flow[0].proto: cannot read .proto file /nonexistent/a.proto: no such file or directory"},
		{"protoset missing", "protoset: sets/b.protoset",
			"9:19: scenarios.s.flow[0].protoset: cannot read protoset " + filepath.Join(dir, "sets/b.protoset") + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, "t.yaml")
			src := head + "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        " + tt.keys + "\n"
			_, err := Parse(file, []byte(src), nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error: %v", err)
			case tt.want != "" && (err == nil || err.Error() != file+":"+tt.want):
				t.Errorf("error:\n%v\nwant:\n%s:%s", err, file, tt.want)
			}
		})
	}
}

// TestParseImportedLeavesProtosUnread: an import's output names .proto
// files the user places beside it afterwards, so it parses without them.
func TestParseImportedLeavesProtosUnread(t *testing.T) {
	for _, keys := range []string{"proto: ../nowhere/route_guide.proto", "protoset: gone.protoset"} {
		src := head + "      - grpc: 127.0.0.1:1\n        method: a.B/C\n        " + keys + "\n"
		file := filepath.Join(t.TempDir(), "t.yaml")
		if _, err := ParseImported(file, []byte(src), nil); err != nil {
			t.Errorf("%s: %v", keys, err)
		}
		if _, err := Parse(file, []byte(src), nil); err == nil {
			t.Errorf("%s: Parse found no error", keys)
		}
	}
}

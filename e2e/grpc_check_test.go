package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a grpc: step's .proto files say is checked before any run: a
// method the service lacks, or messages a unary method cannot take, is an
// error at the step's line from validate and from run, which exits 2 with
// no run directory made (before, validate said ok and run failed after
// starting). A step its server's reflection describes is left to the run.
func TestGRPCStepsAreCheckedAgainstTheirProtos(t *testing.T) {
	protos, err := filepath.Abs("../internal/protocol/grpc/testdata")
	if err != nil {
		t.Fatal(err)
	}
	step := func(method, extra string) string {
		return "name: check\nscenarios:\n  calls:\n    iterations: 1\n    flow:\n" +
			"      - grpc: grpc://127.0.0.1:9\n        method: " + method + "\n" +
			"        proto: grpc/testing/test.proto\n        import_paths: [" + protos + "]\n" + extra
	}
	for _, tc := range []struct {
		name, test string
		want       string // "" when validate says ok
	}{
		{"a method the service lacks", step("grpc.testing.TestService/NoSuchCall", ""),
			"t.yaml:7:17: scenarios.calls.flow[0].method: service grpc.testing.TestService has no method NoSuchCall (it has: EmptyCall, UnaryCall"},
		{"two messages to a unary method", step("grpc.testing.TestService/UnaryCall", "        messages: [{}, {}]\n"),
			"takes one request message, and the step gives 2"},
		{"a method the service has", step("grpc.testing.TestService/UnaryCall", ""), ""},
		{"reflection", "name: check\nscenarios:\n  calls:\n    iterations: 1\n    flow:\n      - grpc: grpc://127.0.0.1:9\n        method: a.B/C\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(tc.test), 0o644); err != nil {
				t.Fatal(err)
			}
			v := loadlens(t, dir, "validate", "t.yaml")
			if tc.want == "" {
				if v.code != 0 {
					t.Fatalf("validate exit %d, want 0:\n%s", v.code, v.stderr)
				}
				return
			}
			if v.code != 2 || !strings.Contains(v.stderr, tc.want) {
				t.Errorf("validate exit %d, want 2 saying %q:\n%s%s", v.code, tc.want, v.stdout, v.stderr)
			}
			r := loadlens(t, dir, "run", "t.yaml", "--quiet", "--no-dashboard", "--results", "results")
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("run exit %d, want 2 saying %q:\n%s%s", r.code, tc.want, r.stdout, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "results")); !os.IsNotExist(err) {
				t.Errorf("run made %s (%v): a test refused before its run makes no run directory", filepath.Join(dir, "results"), err)
			}
		})
	}
}

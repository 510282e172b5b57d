package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMixedRunSaysOperations runs a gRPC scenario beside a WebSocket one
// through the real binary (grpc-go's interop server and a WebSocket echo on
// 127.0.0.1), one call of two answered NOT_FOUND: the run-wide figures of
// the progress line, the summary's headline and tables, the findings, the
// verdict line and summary.md count operations, split into calls and
// sessions, and never call a figure of calls or sessions requests; each
// scenario's own notes keep its protocol's word.
func TestMixedRunSaysOperations(t *testing.T) {
	srv := startGRPCInterop(t)
	ws := startWSEcho(t)
	protos, err := filepath.Abs("../internal/protocol/grpc/testdata")
	if err != nil {
		t.Fatal(err)
	}
	call := `      - grpc: grpc://%[1]s
        method: grpc.testing.TestService/UnaryCall
        proto: grpc/testing/test.proto
        import_paths: [%[2]s]
        timeout: 10s
`
	test := fmt.Sprintf(`name: mixed
scenarios:
  calls:
    iterations: 200
    vus: 2
    flow:
`+call+`        message: {response_size: 3}
`+call+`        name: not found
        message: {response_status: {code: 5, message: "nope"}}
  chat:
    iterations: 200
    vus: 2
    flow:
      - ws: ws://%[3]s/chat
        timeout: 10s
        send: [{text: hi}]
        until: {body_contains: hi}
thresholds:
  http_req_failed: ["rate < 0.9"]
  grpc_req_duration: ["avg < 10s"]
`, srv.addr, protos, strings.TrimPrefix(ws.URL, "http://"))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	r := loadlens(t, dir, "run", "t.yaml", "--no-dashboard", "--results", "results", "--summary-md", "s.md")
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "s.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(r.stdout+r.stderr), " ") // wrapped lines joined
	for _, w := range []string{
		"600 operations (", "400 calls, 200 sessions", // the headline, split per protocol
		"OPS ACTIVE OPS/S", // the endpoint table's columns
		"of operations failed",
		"judged: grpc_req_duration avg < 10s over 400 calls", // a threshold on calls counts calls
		"PASS: all 2 thresholds passed",
		"scenario calls:", // the per-scenario notes keep their words, when a graceful stop shows them
	} {
		if w == "scenario calls:" && !strings.Contains(flat, "graceful stop") {
			continue
		}
		if !strings.Contains(flat, w) {
			t.Errorf("the summary lacks %q:\n%s%s", w, r.stdout, r.stderr)
		}
	}
	if !strings.Contains(string(md), "| Operations | Throughput |") || !strings.Contains(string(md), "ops/s") {
		t.Errorf("summary.md's headline is not in operations:\n%s", md)
	}
	// A figure of calls or sessions named as requests: a count of them, a
	// share of them, their rate or a column of them.
	requests := regexp.MustCompile(`\d[\d,.]* requests?\b|\bof requests\b|\breq/s\b|\bREQS\b|\bRPS\b|\| Requests \|`)
	for what, text := range map[string]string{"the summary": r.stdout + r.stderr, "summary.md": string(md)} {
		for _, line := range strings.Split(text, "\n") {
			if m := requests.FindString(line); m != "" {
				t.Errorf("%s says %q of calls and sessions: %s", what, m, line)
			}
		}
	}
}

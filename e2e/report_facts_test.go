package e2e

import (
	"context"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// TestReportShowsGRPCFacts runs unary, server-streaming and failing gRPC
// calls and a custom counter through the real binary against grpc-go's
// interop server, which counts the calls by status code and the messages
// it received and sent; report.html and --summary-md must show the same
// counts in their sessions, statuses and custom metrics tables.
func TestReportShowsGRPCFacts(t *testing.T) {
	srv := startCountingGRPC(t)
	dir := t.TempDir()
	test := `name: grpc-report
metrics:
  calls_made: counter
scenarios:
  calls:
    iterations: 6
    vus: 2
    flow:
      - grpc: grpc://%[1]s
        name: unary
        method: grpc.testing.TestService/UnaryCall
        message: {response_size: 3}
        timeout: 10s
      - grpc: grpc://%[1]s
        name: stream
        method: grpc.testing.TestService/StreamingOutputCall
        message: {response_parameters: [{size: 1}, {size: 2}, {size: 3}]}
        timeout: 10s
      - grpc: grpc://%[1]s
        name: refused
        method: grpc.testing.TestService/UnaryCall
        message: {response_status: {code: 14, message: "down"}}
        timeout: 10s
      - add: {calls_made: 3}
`
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, srv.addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--results", "results", "--summary-md", "summary.md")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	page, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results")), "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	c := srv.counts()
	ok, unavailable := c.codes["UnaryCall "+codes.OK.String()], c.codes["UnaryCall "+codes.Unavailable.String()]
	if ok != 6 || unavailable != 6 || c.streamed != 18 {
		t.Fatalf("the server saw %v and streamed %d messages; the test asks for 6 OK, 6 Unavailable, 18 streamed", c.codes, c.streamed)
	}
	rows := map[string]string{ // each row's cells after the first, as both pages write them
		"stream":     fmt.Sprintf("grpc %d %d %d", 6, c.streamRecv, c.streamed), // sessions, sent, received
		"unary":      fmt.Sprintf("grpc %d %d %d", ok, ok, ok),                  // one message each way per call
		"refused":    "UNAVAILABLE " + fmt.Sprint(unavailable) + " 100.00%",
		"calls_made": "counter 6 total 18",
	}
	for where, text := range map[string]string{"report.html": htmlCells(string(page)), "summary.md": mdCells(string(md))} {
		for name, want := range rows {
			if !strings.Contains(text, "\n"+name+" "+want) {
				t.Errorf("%s has no row %q %q:\n%s", where, name, want, text)
			}
		}
	}
}

var (
	e2eRowRE  = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	e2eCellRE = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
)

// htmlCells is the page's table rows, a line each, cells joined by spaces.
func htmlCells(page string) string {
	var sb strings.Builder
	for _, tr := range e2eRowRE.FindAllStringSubmatch(page, -1) {
		sb.WriteString("\n")
		for i, td := range e2eCellRE.FindAllStringSubmatch(tr[1], -1) {
			if i > 0 {
				sb.WriteString(" ")
			}
			sb.WriteString(html.UnescapeString(td[1]))
		}
	}
	return sb.String()
}

// mdCells is the Markdown's table rows, a line each, cells joined by spaces
// and unescaped.
func mdCells(md string) string {
	var sb strings.Builder
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| ") {
			sb.WriteString("\n" + strings.ReplaceAll(strings.Join(strings.Split(strings.Trim(line, "| "), " | "), " "), `\_`, "_"))
		}
	}
	return sb.String()
}

// countingGRPC is grpc-go's interop server counting unary calls by method
// and status code, and the messages its streams received and sent.
type countingGRPC struct {
	addr                 string
	mu                   sync.Mutex
	codes                map[string]int
	streamed, streamRecv int
}

func startCountingGRPC(t *testing.T) *countingGRPC {
	t.Helper()
	g := &countingGRPC{codes: map[string]int{}}
	unary := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		resp, err := h(ctx, req)
		g.mu.Lock()
		g.codes[info.FullMethod[strings.LastIndex(info.FullMethod, "/")+1:]+" "+status.Code(err).String()]++
		g.mu.Unlock()
		return resp, err
	}
	stream := func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		return h(srv, &countingStream{ServerStream: ss, g: g})
	}
	srv := grpc.NewServer(grpc.UnaryInterceptor(unary), grpc.StreamInterceptor(stream))
	testgrpc.RegisterTestServiceServer(srv, interop.NewTestServer())
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

// countingSnapshot is what the server counted.
type countingSnapshot struct {
	codes                map[string]int
	streamed, streamRecv int
}

func (g *countingGRPC) counts() countingSnapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := countingSnapshot{codes: map[string]int{}, streamed: g.streamed, streamRecv: g.streamRecv}
	for k, v := range g.codes {
		c.codes[k] = v
	}
	return c
}

// countingStream counts a stream's messages, excluding reflection's.
type countingStream struct {
	grpc.ServerStream
	g *countingGRPC
}

func (s *countingStream) SendMsg(m any) error {
	err := s.ServerStream.SendMsg(m)
	if _, ok := m.(*testgrpc.StreamingOutputCallResponse); ok && err == nil {
		s.g.mu.Lock()
		s.g.streamed++
		s.g.mu.Unlock()
	}
	return err
}

func (s *countingStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if _, ok := m.(*testgrpc.StreamingOutputCallRequest); ok && err == nil {
		s.g.mu.Lock()
		s.g.streamRecv++
		s.g.mu.Unlock()
	}
	return err
}

// TestRefusedWebSocketHandshakeReadsAsSuch: a WebSocket server that
// answers every upgrade 403 is reported in WebSocket's words: the finding
// names the refused handshake and its remedies (no expect_status, which a
// ws: step does not have), and the statuses count the refusals the server
// made.
func TestRefusedWebSocketHandshakeReadsAsSuch(t *testing.T) {
	var refused atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		refused.Add(1)
		http.Error(w, "no token", http.StatusForbidden)
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := `name: chat
scenarios:
  chat:
    iterations: 5
    vus: 1
    flow:
      - ws: ws://%s/chat
        timeout: 10s
        send: [{text: hello}]
        max_messages: 1
`
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(fmt.Sprintf(test, strings.TrimPrefix(srv.URL, "http://"))), 0o644); err != nil {
		t.Fatal(err)
	}
	res := loadlens(t, dir, "run", "t.yaml", "--results", "results", "--summary-md", "summary.md")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	page, err := os.ReadFile(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results")), "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := refused.Load()
	if n != 5 {
		t.Fatalf("the server refused %d handshakes, want 5", n)
	}
	row := fmt.Sprintf("\nWS %s/chat http_4xx %d 100.00%%", strings.Replace(srv.URL, "http", "ws", 1), n)
	for where, text := range map[string]string{"report.html": htmlCells(string(page)), "summary.md": mdCells(string(md))} {
		if !strings.Contains(text, row) {
			t.Errorf("%s has no row %q:\n%s", where, row, text)
		}
	}
	for where, text := range map[string]string{"the summary": res.stdout, "report.html": html.UnescapeString(string(page))} {
		flat := strings.Join(strings.Fields(text), " ")
		if !strings.Contains(flat, fmt.Sprintf("%d of %d WebSocket handshake refused with a 4xx status", n, n)) || !strings.Contains(flat, "websocat") {
			t.Errorf("%s does not name the refused handshake and its remedy:\n%s", where, text)
		}
		if strings.Contains(flat, "expect_status") {
			t.Errorf("%s offers expect_status to a ws: step", where)
		}
	}
}

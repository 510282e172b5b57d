package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/coder/websocket"
	"google.golang.org/grpc"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// chatCounts is what a WebSocket chat server counted of its own traffic.
type chatCounts struct {
	sessions, in, out, refused atomic.Int64
}

// chatServer echoes a session's first message on /chat twice and each
// later one once, counting sessions and messages each way before the
// client can see them; /refuse refuses the handshake with 403.
func chatServer(t *testing.T) (string, *chatCounts) {
	t.Helper()
	c := &chatCounts{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/refuse" {
			c.refused.Add(1)
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer conn.CloseNow()
		c.sessions.Add(1)
		for i := range 100 { // bounded: a session sends 2 messages
			typ, b, err := conn.Read(r.Context())
			if err != nil {
				return
			}
			c.in.Add(1)
			for range max(2-i, 1) {
				c.out.Add(1) // before the write: the client ends its session on reading it
				if conn.Write(r.Context(), typ, b) != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), c
}

// grpcCounts is what grpc-go's interop server counted: calls by status
// code name, and messages each way.
type grpcCounts struct {
	mu      sync.Mutex
	codes   map[string]int64
	in, out int64
}

func countingInterop(t *testing.T) (string, *grpcCounts) {
	t.Helper()
	g := &grpcCounts{codes: map[string]int64{}}
	count := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		resp, err := h(ctx, req)
		g.mu.Lock()
		defer g.mu.Unlock()
		g.in++
		if err == nil {
			g.out++
		}
		g.codes[codeName(status.Code(err).String())]++
		return resp, err
	}
	srv := grpc.NewServer(grpc.UnaryInterceptor(count))
	testgrpc.RegisterTestServiceServer(srv, interop.NewTestServer())
	reflection.Register(srv) // the steps describe their methods by reflection
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	return lis.Addr().String(), g
}

// codeName spells a gRPC code's Go name (NotFound) as the protocol's
// (NOT_FOUND).
func codeName(goName string) string {
	var b strings.Builder
	for i, r := range goName {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(goName[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}

// sessionsPanel is the dashboard's sessions panel as the browser shows it.
type sessionsPanel struct {
	Hidden   bool       `json:"hidden"`
	Sessions [][]string `json:"sessions"` // endpoint, protocol, sessions, sent, received, received/s, first p95, reply p95
	Statuses [][]string `json:"statuses"` // endpoint, status, count, share
}

func readSessionsPanel(b *browser) sessionsPanel {
	var p sessionsPanel
	b.eval(`var rows = s => Array.from(document.querySelectorAll(s)).map(tr => Array.from(tr.cells).map(td => td.textContent));
		return {hidden: document.getElementById("sessions-box").hidden, sessions: rows("#sessions tbody tr"), statuses: rows("#statuses tbody tr")}`, &p)
	return p
}

// row returns the panel's row of the endpoint whose label ends with name.
func (p sessionsPanel) row(name string) []string {
	for _, r := range p.Sessions {
		if strings.HasSuffix(r[0], name) {
			return r
		}
	}
	return nil
}

// statuses returns the endpoint's status counts as shown.
func (p sessionsPanel) statuses(name string) map[string]string {
	out := map[string]string{}
	for _, r := range p.Statuses {
		if strings.HasSuffix(r[0], name) {
			out[r[1]] = r[2]
		}
	}
	return out
}

// TestDashboardShowsSessions runs ws: and grpc: steps through the binary
// against servers that count their own traffic, and reads the live
// dashboard's sessions panel in Chromium: it shows while the run lasts,
// and once the run has ended each endpoint's sessions, messages sent and
// received, and statuses (gRPC's by code name, a refused handshake's as
// http_4xx) are the servers' counts.
func TestDashboardShowsSessions(t *testing.T) {
	b := startBrowser(t)
	wsAddr, chat := chatServer(t)
	grpcAddr, calls := countingInterop(t)
	dir := t.TempDir()
	test := writeTest(t, dir, "sessions.yaml", fmt.Sprintf(`
name: sessions-live
scenarios:
  mixed:
    rate: 4
    duration: 6s
    flow:
      - ws: ws://%[1]s/chat
        name: chat
        timeout: 10s
        send: [{text: hello}, {text: again}]
        until: {body_contains: again}
      - grpc: grpc://%[2]s
        method: grpc.testing.TestService/UnaryCall
        name: unary
        message: {response_size: 3}
        timeout: 10s
      - grpc: grpc://%[2]s
        method: grpc.testing.TestService/UnaryCall
        name: lookup
        message: {response_status: {code: 5, message: nope}}
        timeout: 10s
      - ws: ws://%[1]s/refuse
        name: refused
        timeout: 10s
        max_messages: 1
`, wsAddr, grpcAddr))
	run := startLive(t, dir, "run", test, "--results", "results", "--quiet")
	b.open(run.dashboard)
	var live sessionsPanel
	shown := pollUntil(30*time.Second, func() bool {
		live = readSessionsPanel(b)
		r := live.row("chat")
		return !live.Hidden && r != nil && r[2] != "0" || text(b, "#verdict") != "LIVE"
	})
	switch {
	case !shown:
		t.Fatalf("the sessions panel showed no chat session within 30s: %+v", live)
	case text(b, "#verdict") == "LIVE":
		// a session counts on the page once it has ended, on the server once accepted
		if got, err := strconv.ParseInt(live.row("chat")[2], 10, 64); err != nil || got > chat.sessions.Load() {
			t.Errorf("live, the panel shows %q chat sessions; the server had accepted %d", live.row("chat")[2], chat.sessions.Load())
		}
		b.screenshot("dashboard-sessions-live.png")
	default:
		t.Log("the run ended before the panel was read live: only its end is judged")
	}
	if code := run.wait(t); code != 0 {
		t.Fatalf("run exit %d, want 0 (no thresholds)", code)
	}
	waitFor(t, 10*time.Second, "the dashboard to show the run's end", func() bool { return text(b, "#verdict") != "LIVE" })
	b.screenshot("dashboard-sessions-ended.png")
	p := readSessionsPanel(b)
	calls.mu.Lock()
	codes, gin, gout := calls.codes, calls.in, calls.out
	calls.mu.Unlock()
	n := func(v int64) string { return fmt.Sprintf("%d", v) } // the counts here stay under 1,000
	for _, c := range []struct {
		name, proto string
		sessions    int64
		sent, recv  int64
		statuses    map[string]string
	}{
		{"chat", "ws", chat.sessions.Load(), chat.in.Load(), chat.out.Load(), map[string]string{"OK": n(chat.sessions.Load())}},
		{"refused", "ws", chat.refused.Load(), 0, 0, map[string]string{"http_4xx": n(chat.refused.Load())}},
		{"unary", "grpc", codes["OK"], codes["OK"], codes["OK"], map[string]string{"OK": n(codes["OK"])}},
		{"lookup", "grpc", codes["NOT_FOUND"], codes["NOT_FOUND"], 0, map[string]string{"NOT_FOUND": n(codes["NOT_FOUND"])}},
	} {
		r := p.row(c.name)
		if r == nil {
			t.Errorf("%s: no row in the sessions panel: %v", c.name, p.Sessions)
			continue
		}
		if c.sessions < 10 {
			t.Errorf("%s: the server counted %d sessions, want at least 10 (4/s over 6 s)", c.name, c.sessions)
		}
		if want := []string{c.proto, n(c.sessions), n(c.sent), n(c.recv)}; strings.Join(r[1:5], " ") != strings.Join(want, " ") {
			t.Errorf("%s: panel shows protocol, sessions, sent, received %v; the server counted %v", c.name, r[1:5], want)
		}
		if got := p.statuses(c.name); fmt.Sprint(got) != fmt.Sprint(c.statuses) {
			t.Errorf("%s: panel statuses %v; the server counted %v", c.name, got, c.statuses)
		}
	}
	if gin != codes["OK"]+codes["NOT_FOUND"] || gout != codes["OK"] {
		t.Errorf("the gRPC server counted %d calls in, %d answers out and statuses %v: other calls than the test's", gin, gout, codes)
	}
	// The panel's count column names what its rows count: WebSocket sessions and gRPC calls here.
	if h := text(b, "#sessions thead th:nth-child(3)"); h != "Calls, sessions" {
		t.Errorf("the sessions panel's count column is %q, want \"Calls, sessions\"", h)
	}
	if r := p.row("chat"); r != nil && (r[6] == "-" || r[7] == "-") {
		t.Errorf("chat: no time to first message or reply time: %v", r)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("dashboard console errors:\n%s", strings.Join(errs, "\n"))
	}
}

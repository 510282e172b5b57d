package e2e

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
)

// TestSessionsBytesSentThroughTheBinary: the run's bytes sent by ws: and
// sse: steps are what the server read (handshakes, frames, requests), as
// for HTTP; a trial's summary said "116.9 kB received · 0 B sent" for 7,307
// WebSocket sessions.
func TestSessionsBytesSentThroughTheBinary(t *testing.T) {
	var read, written atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/feed" {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"n\": 1}\n\ndata: {\"n\": 2}\n\n")
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		for range 100 { // an echo server, bounded; ends at the client's close
			typ, b, err := c.Read(r.Context())
			if err != nil || c.Write(r.Context(), typ, b) != nil {
				return
			}
		}
	}))
	srv.Listener = &countedListener{Listener: srv.Listener, read: &read, written: &written}
	srv.Start()
	defer srv.Close()
	dir := t.TempDir()
	host := strings.TrimPrefix(srv.URL, "http://")
	test := fmt.Sprintf(`name: bytes
scenarios:
  chat:
    iterations: 5
    vus: 1
    flow:
      - ws: ws://%s/chat
        timeout: 10s
        send: [{text: '%s'}, {text: 'done'}]
        until: {body_contains: done}
  feed:
    iterations: 3
    vus: 1
    flow:
      - sse: http://%s/feed
        max_events: 2
        timeout: 10s
`, host, strings.Repeat("m", 2000), host)
	os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644)
	res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	s := readSummary(t, filepath.Join(dir, "s.json"))
	sent, _ := s.Metrics["data_sent"]["count"].(float64)
	if got := read.Load(); int64(sent) != got || got < 5*2000 {
		t.Errorf("the run sent %v B; the server read %d B (at least the 5 × 2000 B messages)", sent, got)
	}
}

// countedListener counts the bytes its connections read and wrote.
type countedListener struct {
	net.Listener
	read, written *atomic.Int64
}

func (l *countedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countedConn{Conn: c, l: l}, nil
}

type countedConn struct {
	net.Conn
	l *countedListener
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.l.read.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.l.written.Add(int64(n))
	return n, err
}

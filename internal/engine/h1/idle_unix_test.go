//go:build unix

package h1

import (
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/testkit"
)

// idleServer answers the first request on its first connection with ok,
// then, once told, does late (writes bytes or closes) on that idle
// connection; later connections get ok for every request. It reports each
// request it reads and the connections it accepted (closingServer's).
func idleServer(t *testing.T, late func(net.Conn)) (url string, now, done chan struct{}, conns, reqs *atomic.Int64) {
	t.Helper()
	now, done = make(chan struct{}), make(chan struct{})
	var first sync.Once // the client sends one request at a time: the first is the first connection's
	url, conns, reqs = closingServer(t, func(c *net.TCPConn) bool {
		first.Do(func() {
			<-now
			late(c)
			close(done)
		})
		return true
	})
	return url, now, done, conns, reqs
}

// TestBytesArrivingWhileIdle: bytes (or a close) that arrive on a kept-alive
// connection after its response was read, before the next request, make
// the client drop it, as net/http's Transport does; the next request,
// even a POST, goes out on a new connection. A close or a reset (not
// bytes) is the server's idle close: the client learns that the server
// closes connections idle that long (IdleCloses).
func TestBytesArrivingWhileIdle(t *testing.T) {
	cases := []struct {
		name    string
		method  string
		late    func(net.Conn)
		learned bool
	}{
		{"an unsolicited response", "GET", func(c net.Conn) { c.Write([]byte("HTTP/1.1 500 Stray\r\nContent-Length: 5\r\n\r\nstray")) }, false},
		{"a 408 before closing", "GET", func(c net.Conn) { c.Write([]byte("HTTP/1.1 408 Request Timeout\r\n\r\n")) }, false},
		{"the server closed the idle connection", "POST", func(c net.Conn) { c.(*net.TCPConn).CloseWrite() }, true},
		{"the server reset the idle connection", "GET", func(c net.Conn) { c.(*net.TCPConn).SetLinger(0); c.Close() }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url, now, done, conns, reqs := idleServer(t, c.late)
			cl := NewClient(&net.Dialer{})
			defer cl.Close()
			if resp, err := do(t, cl, c.method, url, true); err != nil || string(resp.Body) != "ok" {
				t.Fatalf("first request: %v %q", err, resp.Body)
			}
			close(now)
			<-done
			addr := cl.conns[0].addr
			waitNotQuiet(t, cl.conns[0])
			start := time.Now()
			resp, err := do(t, cl, c.method, url, true)
			if got := cl.closes.shortest(addr); (got > 0) != c.learned || got > time.Since(start)+time.Minute {
				t.Errorf("learned an idle close after %v; want one learned: %v", got, c.learned)
			}
			if err != nil || resp.Status != 200 || string(resp.Body) != "ok" {
				t.Fatalf("second request: err %v, %d %q; want 200 \"ok\" from a new connection", err, resp.Status, resp.Body)
			}
			if conns.Load() != 2 || reqs.Load() != 2 {
				t.Errorf("server saw %d connections and %d requests, want 2 and 2", conns.Load(), reqs.Load())
			}
		})
	}
}

// waitNotQuiet waits, boundedly, until what the server did while the
// connection was idle is visible on the client's socket.
func waitNotQuiet(t *testing.T, cn *conn) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); cn.idle.quiet(); {
		if time.Now().After(end) {
			t.Fatal("the server's late bytes never reached the client")
		}
		time.Sleep(time.Millisecond) // polling a condition, with a deadline
	}
}

// BenchmarkIdleCheck is the cost of looking for bytes that arrived on an
// idle kept-alive connection (a non-blocking MSG_PEEK), paid once per reuse.
func BenchmarkIdleCheck(b *testing.B) {
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	req := &Request{Method: "GET", URL: []byte(h1test.FixedServer(b) + "/x")} // no deadline: a passed one fails the peek
	if err := cl.Do(req, &Response{}); err != nil {
		b.Fatal(err)
	}
	cn := cl.conns[0]
	b.ReportAllocs()
	defer testkit.CPUMeter(b)()
	for b.Loop() {
		if !cn.idle.quiet() {
			b.Fatalf("an idle connection with nothing sent looked busy: n=%d err=%v", cn.idle.n, cn.idle.err)
		}
	}
}

func TestResetWithinTellsAnUnreadRequestFromAReadOne(t *testing.T) {
	linux := runtime.GOOS == "linux"
	tests := []struct {
		name            string
		closed          bool                  // the server closes before the request goes out, as in the keep-alive race
		read            func(server net.Conn) // what the server does with the request, then it closes
		wait            time.Duration
		reset, afterFIN bool
	}{
		// The server had closed when the request came: its kernel resets.
		{"closed before the request", true, nil, 5 * time.Second, true, linux},
		// The server read the request, then closed cleanly: no reset follows.
		{"read, then closed", false, func(net.Conn) {}, 50 * time.Millisecond, false, false},
		// The server read the request, then reset: a reset with no close before it.
		{"read, then reset", false, func(s net.Conn) { s.(*net.TCPConn).SetLinger(0) }, 5 * time.Second, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, server := loopbackPair(t)
			req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			var ic idleCheck
			ic.init(client.(syscall.Conn))
			if tt.closed {
				server.Close()
				waitEOF(t, client) // the FIN is in before the request goes out, as in the race
				if _, err := client.Write(req); err != nil {
					t.Fatal(err)
				}
			} else {
				read := make(chan struct{})
				go func() { io.ReadFull(server, make([]byte, len(req))); tt.read(server); server.Close(); close(read) }()
				if _, err := client.Write(req); err != nil {
					t.Fatal(err)
				}
				<-read // a read would take the reset's error: resetWithin waits for it instead
			}
			if reset, afterFIN := ic.resetWithin(tt.wait); reset != tt.reset || afterFIN != tt.afterFIN {
				t.Fatalf("resetWithin = %v, %v; want %v, %v", reset, afterFIN, tt.reset, tt.afterFIN)
			}
		})
	}
}

// waitEOF reads c until the peer's close, within a few seconds.
func waitEOF(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("read %d bytes, %v; want the peer's close", n, err)
	}
	c.SetReadDeadline(time.Time{})
}

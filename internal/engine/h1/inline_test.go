package h1

import (
	"context"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
)

// TestInlineDialsOnTheCallersGoroutine: with Config.Inline the dial and
// the TLS handshake run on the goroutine that calls Do (a parked VU's,
// which ends after the exchange); without it, aside.
func TestInlineDialsOnTheCallersGoroutine(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	urls := map[string]string{"http": h1test.FixedServer(t), "https": h1test.FixedTLSServer(t, srvCfg)}
	for _, tt := range []struct {
		scheme string
		inline bool
	}{{"http", true}, {"http", false}, {"https", true}, {"https", false}} {
		t.Run(tt.scheme+map[bool]string{true: " inline", false: " aside"}[tt.inline], func(t *testing.T) {
			var dialed, firstWrite string // the stacks of the dial and of the connection's first write
			var d net.Dialer
			cl := New(Config{TLS: cliCfg, Inline: tt.inline, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				dialed = callers()
				c, err := d.DialContext(ctx, network, addr)
				return &stackConn{Conn: c, first: &firstWrite}, err
			}})
			defer cl.Close()
			req := &Request{Method: "GET", URL: []byte(urls[tt.scheme] + "/"), Timeout: 10 * time.Second}
			if err := cl.Do(req, &Response{}); err != nil {
				t.Fatal(err)
			}
			const caller = "TestInlineDialsOnTheCallersGoroutine.func1(" // the subtest, not the dial func (func1.1)
			if got := strings.Contains(dialed, caller); got != tt.inline {
				t.Errorf("dialled on the caller's goroutine: %v, want %v\n%s", got, tt.inline, dialed)
			}
			if want := tt.inline || tt.scheme == "http"; strings.Contains(firstWrite, caller) != want { // over https the handshake's ClientHello
				t.Errorf("first write on the caller's goroutine: %v, want %v\n%s", !want, want, firstWrite)
			}
		})
	}
}

// callers returns the calling goroutine's stack.
func callers() string {
	buf := make([]byte, 64<<10)
	return string(buf[:runtime.Stack(buf, false)])
}

// stackConn records the stack of its first write.
type stackConn struct {
	net.Conn
	first *string
}

func (c *stackConn) Write(p []byte) (int, error) {
	if *c.first == "" {
		*c.first = callers()
	}
	return c.Conn.Write(p)
}

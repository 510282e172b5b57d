//go:build unix

package h1

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// TestOnWrittenComesBeforeTheResponse: OnWritten is called once the
// request is out and before Do waits for the response, on every path of
// the write: one raw write-and-wait over http (the hook inside it), a
// request larger than the socket's buffer (the rest written as write
// does), and TLS. The server answers only once the hook ran (or after 5 s
// with 504): a hook called after the response, as a hook after the raw
// write-and-wait was, reads 504.
func TestOnWrittenComesBeforeTheResponse(t *testing.T) {
	smallBuffer := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096) })
	}}
	tests := []struct {
		name string
		tls  bool
		body int
	}{
		{"http", false, 0},
		{"http, larger than the socket buffer", false, 1 << 20},
		{"https", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			written := make(chan struct{}, 4)
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				select {
				case <-written:
				case <-time.After(5 * time.Second): // the hook never ran before the response was due
					w.WriteHeader(http.StatusGatewayTimeout)
				}
			})
			var srv *httptest.Server
			var cl *Client
			if tt.tls {
				srv = httptest.NewTLSServer(h)
				cl = tlsClient(&tls.Config{InsecureSkipVerify: true})
			} else {
				srv = httptest.NewServer(h)
				cl = New(Config{Dialer: smallBuffer})
			}
			defer srv.Close()
			defer cl.Close()
			calls := 0
			req := &Request{Method: "POST", URL: []byte(srv.URL), Body: make([]byte, tt.body), Timeout: 10 * time.Second,
				OnWritten: func() { calls++; written <- struct{}{} }}
			for i := range 2 { // a new connection, then a reused one
				var resp Response
				if err := cl.Do(req, &resp); err != nil || resp.Status != http.StatusOK {
					t.Fatalf("request %d: %v, status %d; want 200, the hook called before the response", i, err, resp.Status)
				}
				if calls != i+1 {
					t.Fatalf("request %d: the hook was called %d times in all, want %d", i, calls, i+1)
				}
			}
		})
	}
}

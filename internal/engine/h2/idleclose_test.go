package h2

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
)

// hookConn runs its hook, once, before its next write: the test's server
// closes its end there. It keeps the socket's SyscallConn for the idle
// check; being no *net.TCPConn, it is written through its Write.
type hookConn struct {
	*net.TCPConn
	hook *atomic.Pointer[func()]
}

func (h hookConn) Write(p []byte) (int, error) {
	if f := h.hook.Swap(nil); f != nil {
		(*f)()
	}
	return h.TCPConn.Write(p)
}

// How the server closes a connection without GOAWAY, as a proxy's idle
// timeout does (a plain TCP close).
const (
	closeIdle    = iota // after its first answer, before the second request
	closeAtWrite        // as the second request is written, after the client's idle check
	closeRead           // after reading the second request
	closeHeaders        // after the second answer's HEADERS
	closeFresh          // after reading the first request
)

// TestCloseWithoutGoAway: a server that closes a kept-alive connection
// without GOAWAY. A request that finds the close before it is written goes
// out on a new connection, neither failed nor counted twice; one whose
// write met the close is sent again (once, counted once) when the server's
// close came before it (its reset proves it unread) and its method is
// idempotent, as h1 does. A request the server read, one with part of its
// answer, or one on a fresh connection fails (conn_reset).
func TestCloseWithoutGoAway(t *testing.T) {
	cases := []struct {
		name    string
		close   int
		method  string // the second request's
		failAt  int    // the request that fails, 1 or 2; 0: none
		served  int64  // requests the server read
		conns   int64
		retried int
	}{
		{"closed while idle", closeIdle, "GET", 0, 2, 2, 0},
		{"closed while idle, POST", closeIdle, "POST", 0, 2, 2, 0},
		{"the write meets the close", closeAtWrite, "GET", 0, 2, 2, 1},
		{"the write meets the close, POST", closeAtWrite, "POST", 2, 1, 1, 0},
		{"closed after reading the request", closeRead, "GET", 2, 2, 1, 0},
		{"closed after the answer's HEADERS", closeHeaders, "GET", 2, 2, 1, 0},
		{"closed on a fresh connection", closeFresh, "GET", 1, 1, 1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.close == closeAtWrite && tc.failAt == 0 && runtime.GOOS != "linux" {
				t.Skip("only Linux's socket error tells a reset after the server's close")
			}
			var last atomic.Pointer[session]
			ready := make(chan struct{}) // the server's first answer is over: its client's frames read, its idle close made
			srv := startFault(t, func(s *session, id uint32) {
				last.Store(s)
				first, second := s.n == 1 && id == 1, s.n == 1 && id == 3 // a new connection's requests are answered
				switch {
				case first && tc.close == closeFresh, second && tc.close == closeRead:
				case second && tc.close == closeHeaders:
					s.headers(id, "200", false, "content-length", "2")
				case first:
					s.ok(id)
					s.waitAcks(1) // the client's frames read: the close sends a FIN, not a reset
					if tc.close == closeIdle {
						s.nc.Close()
						s.stop = true
					}
					close(ready)
					return
				default:
					s.ok(id)
					return
				}
				s.nc.Close()
				s.stop = true
			})
			var hook atomic.Pointer[func()]
			var cfg Config // the other cases read and write the socket raw (see wire)
			if tc.close == closeAtWrite {
				cfg.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
					nc, err := (&net.Dialer{}).DialContext(ctx, network, addr)
					if err != nil {
						return nil, err
					}
					return hookConn{nc.(*net.TCPConn), &hook}, nil
				}
			}
			c := New(cfg)
			defer c.Close()
			url := []byte("http://" + srv.addr + "/")
			var resp h1.Response
			for i := 1; i <= 2; i++ {
				req := &h1.Request{Method: "GET", URL: url, Timeout: 5 * time.Second}
				if i == 2 {
					select {
					case <-ready:
					case <-time.After(5 * time.Second):
						t.Fatal("the server's first answer did not end")
					}
					req.Method = tc.method
					if tc.method == "POST" {
						req.Body = []byte("data")
					}
					if tc.close == closeAtWrite {
						f := func() { last.Load().nc.Close() }
						hook.Store(&f)
					}
				}
				err := c.Do(req, &resp)
				if i == tc.failAt {
					if !h1.IsClosed(err) {
						t.Fatalf("request %d: %v; want the connection's close (conn_reset)", i, err)
					}
					break
				}
				if err != nil || resp.Status != 200 {
					t.Fatalf("request %d: status %d, %v; want 200", i, resp.Status, err)
				}
			}
			if srv.requests.Load() != tc.served || srv.conns.Load() != tc.conns || c.retried != tc.retried {
				t.Fatalf("the server read %d requests on %d connections, %d sent again; want %d, %d, %d",
					srv.requests.Load(), srv.conns.Load(), c.retried, tc.served, tc.conns, tc.retried)
			}
		})
	}
}

// rawListener keeps the TCP connections it accepted, under the server's TLS.
type rawListener struct {
	net.Listener
	conns chan *net.TCPConn
}

func (l rawListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err == nil {
		l.conns <- nc.(*net.TCPConn)
	}
	return nc, err
}

// TestTLSCloseWithoutGoAway: over TLS, against Go's server, a kept-alive
// connection whose TCP socket the server's side closes (FIN) or resets
// while idle, with no GOAWAY and no close_notify (a proxy's idle timeout),
// is found before the next request, which goes on a new connection.
func TestTLSCloseWithoutGoAway(t *testing.T) {
	cases := []struct {
		name   string
		linger int // SetLinger before the close: 0 resets, -1 closes
	}{
		{"closed", -1},
		{"reset", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gs := &goServer{}
			srv := httptest.NewUnstartedServer(gs.handler())
			ln := rawListener{srv.Listener, make(chan *net.TCPConn, 4)}
			srv.Listener = ln
			srv.EnableHTTP2 = true
			srv.StartTLS()
			defer srv.Close()
			pool := x509.NewCertPool()
			pool.AddCert(srv.Certificate())
			c := New(Config{TLS: &tls.Config{RootCAs: pool}})
			defer c.Close()
			req := &h1.Request{Method: "GET", URL: []byte(srv.URL + "/small"), Timeout: 5 * time.Second}
			var resp h1.Response
			if err := c.Do(req, &resp); err != nil || resp.Status != 200 {
				t.Fatalf("first request: status %d, %v", resp.Status, err)
			}
			raw := <-ln.conns
			raw.SetLinger(tc.linger)
			raw.Close()
			if err := c.Do(req, &resp); err != nil || resp.Status != 200 {
				t.Fatalf("second request: status %d, %v; want it on a new connection", resp.Status, err)
			}
			if gs.served.Load() != 2 || len(ln.conns) != 1 || c.retried != 0 {
				t.Fatalf("%d served, %d more connections, %d sent again; want 2, 1, 0", gs.served.Load(), len(ln.conns), c.retried)
			}
		})
	}
}

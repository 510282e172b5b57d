package h2

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
)

// smallSendBuffer dials with a 4 KiB send buffer, so the socket takes a
// larger request in pieces however fast the server reads.
var smallSendBuffer = &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
	return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096) })
}}

// TestWrittenBeforeTheAnswer: on every path of the request's write (inside
// the wait for its answer, a write the socket takes in pieces, TLS or
// not) OnWritten is called once the request is out and before the answer
// is waited for, and the response's Wrote time is set and not after its
// first byte. The server answers only once the hook ran (or after 5 s,
// with 504); the request's body arrives whole. Most requests go out
// inside the wait (the others found a frame of the server's first).
func TestWrittenBeforeTheAnswer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		secure bool
		body   int
	}{
		{"h2c", false, 0},
		{"tls", true, 0},
		{"h2c, larger than the send buffer", false, 60000},
		{"tls, larger than the send buffer", true, 60000},
		{"tls, past the windows", true, 3 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			written := make(chan struct{}, 4)
			srv := startHandler(t, tc.secure, func(w http.ResponseWriter, r *http.Request) {
				n, _ := io.Copy(io.Discard, r.Body)
				select {
				case <-written:
				case <-time.After(5 * time.Second): // the hook did not run before the answer was due
					w.WriteHeader(http.StatusGatewayTimeout)
				}
				fmt.Fprintf(w, "%d", n)
			})
			c := New(Config{TLS: &tls.Config{InsecureSkipVerify: true}, Dialer: smallSendBuffer})
			defer c.Close()
			calls := 0
			req := &h1.Request{Method: "POST", URL: []byte(srv + "/"), Body: make([]byte, tc.body), KeepBody: true, Timeout: 10 * time.Second,
				OnWritten: func() { calls++; written <- struct{}{} }}
			const n = 8
			for i := range n {
				var resp h1.Response
				if err := c.Do(req, &resp); err != nil || resp.Status != 200 || string(resp.Body) != fmt.Sprint(tc.body) {
					t.Fatalf("request %d: %v, status %d, body %q; want 200 and %d, the hook called before the answer", i, err, resp.Status, resp.Body, tc.body)
				}
				if calls != i+1 || resp.Wrote.IsZero() || resp.FirstByte.Before(resp.Wrote) {
					t.Fatalf("request %d: the hook called %d times in all (want %d), written at %v, first byte at %v", i, calls, i+1, resp.Wrote, resp.FirstByte)
				}
			}
			if tc.body < 65535 && c.waited < n/2 {
				t.Errorf("%d of %d requests written inside the wait for their answer, want most", c.waited, n)
			}
		})
	}
}

// startHandler serves h over HTTP/2 with Go's server, over TLS or h2c,
// and returns its URL.
func startHandler(t *testing.T, secure bool, h http.HandlerFunc) string {
	t.Helper()
	if secure {
		srv := httptest.NewUnstartedServer(h)
		srv.EnableHTTP2 = true
		srv.StartTLS()
		t.Cleanup(srv.Close)
		return srv.URL
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: h, Protocols: &p}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// TestWriteTimesOut: a request the socket cannot take (a server that never
// reads, small buffers on both sides) fails at its deadline as a write
// timeout, as net.Conn's write does, and never hangs.
func TestWriteTimesOut(t *testing.T) {
	for _, secure := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%v", secure), func(t *testing.T) {
			addr := startDeaf(t, secure)
			scheme := "http"
			if secure {
				scheme = "https"
			}
			c := New(Config{TLS: &tls.Config{InsecureSkipVerify: true}, Dialer: smallSendBuffer})
			defer c.Close()
			done := make(chan error, 1)
			go func() {
				var resp h1.Response
				done <- c.Do(&h1.Request{Method: "POST", URL: []byte(scheme + "://" + addr + "/"), Body: make([]byte, 60000), Timeout: 300 * time.Millisecond}, &resp)
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the request did not end at its deadline")
			}
			var op *net.OpError
			if !errors.As(err, &op) || op.Op != "write" || !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("Do: %v; want a write's timeout", err)
			}
		})
	}
}

// startDeaf accepts connections on 127.0.0.1 with a small receive buffer,
// makes their TLS handshake (ALPN h2) if secure, and then reads nothing.
func startDeaf(t *testing.T, secure bool) string {
	t.Helper()
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := serverTLS(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer nc.Close()
				if secure {
					tc := tls.Server(nc, cfg)
					tc.SetDeadline(time.Now().Add(5 * time.Second))
					if tc.Handshake() != nil {
						return
					}
				}
				<-stop
			})
		}
	})
	return ln.Addr().String()
}

// serverTLS is a server configuration offering h2, with httptest's certificate.
func serverTLS(t *testing.T) *tls.Config {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.StartTLS()
	cfg := srv.TLS.Clone()
	srv.Close()
	cfg.NextProtos = []string{"h2"}
	return cfg
}

// batchConn, once on, holds what is written until flush, which writes
// it at once: the TLS records written between arrive together.
type batchConn struct {
	net.Conn
	on  bool
	buf []byte
}

func (b *batchConn) Write(p []byte) (int, error) {
	if !b.on {
		return b.Conn.Write(p)
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *batchConn) flush() {
	b.Conn.Write(b.buf)
	b.buf, b.on = b.buf[:0], false
}

// TestGoAwayBehindTheAnswer: over TLS, a server answers the first request
// and sends GOAWAY in a record of its own that arrives with the answer,
// then keeps the connection open and ignores later streams. The GOAWAY,
// read from the socket but not yet by crypto/tls, is found before the
// next request waits for an answer that would not come: that request goes
// out again on a new connection, not failing at its timeout.
func TestGoAwayBehindTheAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := serverTLS(t)
	fs := &faultServer{}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer nc.Close()
				b := &batchConn{Conn: nc}
				fs.serve(tls.Server(b, cfg), func(s *session, id uint32) {
					switch {
					case s.n > 1:
						s.ok(id)
					case id == 1:
						b.on = true
						s.ok(id)
						s.fr.WriteGoAway(1, http2.ErrCodeNo, nil)
						b.flush()
					} // later streams of the first connection: ignored, the connection kept open
				})
			})
		}
	})
	c := New(Config{TLS: &tls.Config{InsecureSkipVerify: true}})
	defer c.Close()
	req := &h1.Request{Method: "GET", URL: []byte("https://" + ln.Addr().String() + "/"), Timeout: 5 * time.Second}
	for i := range 2 {
		var resp h1.Response
		if err := c.Do(req, &resp); err != nil || resp.Status != 200 {
			t.Fatalf("request %d: %v, status %d; want 200", i, err, resp.Status)
		}
	}
	if fs.conns.Load() != 2 || c.retried != 1 {
		t.Fatalf("%d connections, %d requests sent again; want 2 and 1", fs.conns.Load(), c.retried)
	}
}

// TestTLSServerGoesMidExchange: over TLS, a server whose TCP socket closes
// (FIN) or resets while it handles a request fails that request as before
// the raw reads: a closed connection (conn_reset: an unexpected EOF, or a
// reset that the client's last frames met), worded as net.Conn's errors
// (no RawConn "raw-read" in it).
func TestTLSServerGoesMidExchange(t *testing.T) {
	for _, tc := range []struct {
		name   string
		linger int // SetLinger before the close: 0 resets, -1 closes
	}{
		{"closed", -1},
		{"reset", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ln rawListener
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				raw := <-ln.conns
				raw.SetLinger(tc.linger)
				raw.Close()
			}))
			ln = rawListener{srv.Listener, make(chan *net.TCPConn, 4)}
			srv.Listener = ln
			srv.EnableHTTP2 = true
			srv.StartTLS()
			defer srv.Close()
			c := New(Config{TLS: &tls.Config{InsecureSkipVerify: true}})
			defer c.Close()
			var resp h1.Response
			err := c.Do(&h1.Request{Method: "GET", URL: []byte(srv.URL + "/"), Timeout: 5 * time.Second}, &resp)
			msg := fmt.Sprint(err)
			worded := msg == "unexpected EOF" || strings.HasSuffix(msg, ": connection reset by peer") && !strings.Contains(msg, "raw-")
			if !h1.IsClosed(err) || !worded {
				t.Fatalf("Do: %v; want the connection's close, as net.Conn words it", err)
			}
		})
	}
}

package h2

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
)

// goServer is Go's net/http HTTP/2 server, over TLS or h2c, counting the
// requests its handler saw.
type goServer struct {
	url    string
	tls    *tls.Config // the client's, trusting the server's certificate
	served atomic.Int64
	protos atomic.Int64 // requests that came over HTTP/2
}

func (s *goServer) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.served.Add(1)
		if r.ProtoMajor == 2 {
			s.protos.Add(1)
		}
		switch r.URL.Path {
		case "/small":
			w.Header().Set("Set-Cookie", "a=b")
			w.Write(bytes.Repeat([]byte("x"), 100))
		case "/big": // past the client's stream window: it must send WINDOW_UPDATE
			w.Write(bytes.Repeat([]byte("y"), streamWindow+streamWindow/2))
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			fmt.Fprintf(w, "%d %s", len(b), r.Header.Get("X-Test"))
		case "/trailers":
			w.Header().Set("Trailer", "X-Sum")
			w.Write([]byte("body"))
			w.Header().Set("X-Sum", "42")
		case "/interim":
			w.Header().Set("Link", "</style.css>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints)
			w.Write([]byte("after hints"))
		case "/missing":
			http.Error(w, "no such thing", http.StatusNotFound)
		default:
			w.Write([]byte(r.Method + " " + r.URL.RequestURI()))
			if x := r.Header.Get("X-Test"); x != "" {
				w.Write([]byte(" " + x))
			}
			if tp := r.Header.Get("Traceparent"); tp != "" {
				w.Write([]byte(" tp=" + tp))
			}
		}
	})
}

// startGo starts Go's HTTP/2 server: over TLS (ALPN h2) or h2c with prior knowledge.
func startGo(t testing.TB, secure bool) *goServer {
	t.Helper()
	s := &goServer{}
	if secure {
		srv := httptest.NewUnstartedServer(s.handler())
		srv.EnableHTTP2 = true
		srv.StartTLS()
		t.Cleanup(srv.Close)
		pool := x509.NewCertPool()
		pool.AddCert(srv.Certificate())
		s.url, s.tls = srv.URL, &tls.Config{RootCAs: pool}
		return s
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: s.handler(), Protocols: &p}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	s.url = "http://" + ln.Addr().String()
	return s
}

func TestAgainstGoServer(t *testing.T) {
	big := bytes.Repeat([]byte("z"), 3<<20) // past Go's server's windows (1 MiB a stream and a connection)
	cases := []struct {
		name, method, path string
		body               []byte
		header             string
		maxBody            int64
		status             int
		want               string // the kept body's start
		wantLen            int
		truncated          bool
		cookie             bool
	}{
		{name: "get", method: "GET", path: "/small", status: 200, want: "xxxx", wantLen: 100, cookie: true},
		{name: "query without path", method: "GET", path: "?q=1", status: 200, want: "GET /?q=1", wantLen: 9},
		{name: "post past the windows", method: "POST", path: "/echo", body: big, header: "X-Test: yes\r\n", status: 200, want: "3145728 yes", wantLen: 11},
		{name: "post empty", method: "POST", path: "/echo", status: 200, want: "0 ", wantLen: 2},
		{name: "get past our window", method: "GET", path: "/big", status: 200, want: "yyyy", wantLen: streamWindow + streamWindow/2},
		{name: "max body", method: "GET", path: "/big", maxBody: 1000, status: 200, want: "yyyy", wantLen: 1000, truncated: true},
		{name: "trailers", method: "GET", path: "/trailers", status: 200, want: "body", wantLen: 4},
		{name: "interim 103", method: "GET", path: "/interim", status: 200, want: "after hints", wantLen: 11},
		{name: "404", method: "GET", path: "/missing", status: 404, want: "no such thing", wantLen: 14},
		{name: "head", method: "HEAD", path: "/small", status: 200, wantLen: 0, cookie: true},
	}
	for _, secure := range []bool{true, false} {
		srv := startGo(t, secure)
		c := New(Config{TLS: srv.tls})
		defer c.Close()
		var ok int64
		for i, tc := range cases {
			t.Run(fmt.Sprintf("tls=%v/%s", secure, tc.name), func(t *testing.T) {
				req := &h1.Request{Method: tc.method, URL: []byte(srv.url + tc.path), Body: tc.body, Header: []byte(tc.header),
					KeepBody: true, MaxBody: tc.maxBody, Timeout: 5 * time.Second}
				var resp h1.Response
				if err := c.Do(req, &resp); err != nil {
					t.Fatalf("Do: %v", err)
				}
				ok++
				if resp.Status != tc.status || len(resp.Body) != tc.wantLen || !strings.HasPrefix(string(resp.Body), tc.want) {
					t.Fatalf("status %d, body %d bytes %.20q; want %d, %d bytes %q", resp.Status, len(resp.Body), resp.Body, tc.status, tc.wantLen, tc.want)
				}
				if resp.Truncated != tc.truncated || resp.SetCookie != tc.cookie {
					t.Errorf("truncated %v, set-cookie %v; want %v, %v", resp.Truncated, resp.SetCookie, tc.truncated, tc.cookie)
				}
				if resp.Sent < int64(len(tc.body)) || resp.Received < int64(len(resp.Body)) {
					t.Errorf("sent %d, received %d bytes: fewer than the body's", resp.Sent, resp.Received)
				}
				if resp.Wrote.IsZero() || resp.FirstByte.Before(resp.Wrote) || resp.Done.Before(resp.FirstByte) {
					t.Errorf("times out of order: wrote %v, first byte %v, done %v", resp.Wrote, resp.FirstByte, resp.Done)
				}
				if first := i == 0; (resp.Connect > 0) != first || (resp.TLS > 0) != (first && secure) {
					t.Errorf("connect %v, TLS %v: want them on the first request only", resp.Connect, resp.TLS)
				}
			})
		}
		if got, protos := srv.served.Load(), srv.protos.Load(); got != ok || protos != ok {
			t.Errorf("tls=%v: the server saw %d requests (%d over HTTP/2), the client made %d", secure, got, protos, ok)
		}
		if len(c.conns) != 1 {
			t.Errorf("tls=%v: %d connections, want 1 (all requests on one)", secure, len(c.conns))
		}
	}
}

// TestNoHTTP2 checks that a server whose ALPN picks http/1.1 gets
// ErrNoHTTP2 with nothing written.
func TestNoHTTP2(t *testing.T) {
	var served atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served.Add(1) }))
	srv.StartTLS() // EnableHTTP2 unset: http/1.1 only
	defer srv.Close()
	c := New(Config{TLS: &tls.Config{InsecureSkipVerify: true}})
	defer c.Close()
	var resp h1.Response
	err := c.Do(&h1.Request{Method: "GET", URL: []byte(srv.URL + "/"), Timeout: 5 * time.Second}, &resp)
	if err != ErrNoHTTP2 || served.Load() != 0 {
		t.Fatalf("err %v, served %d; want ErrNoHTTP2 and none", err, served.Load())
	}
}

// TestSameHeaderBlock sends requests that repeat and alternate on one
// connection: a block reused (sameBlock) must name the fields the encoder
// would, after other requests added entries that shift the table's indexes.
func TestSameHeaderBlock(t *testing.T) {
	srv := startGo(t, false)
	c := New(Config{})
	defer c.Close()
	seq := []struct{ path, header string }{
		{"/a", ""}, {"/a", ""}, {"/a", ""}, {"/b", "X-Test: 1\r\n"}, {"/b", "X-Test: 1\r\n"}, {"/a", ""},
		{"/c", "X-Test: 2\r\n"}, {"/a", ""}, {"/a", ""}, {"/b", "X-Test: 1\r\n"}, {"/c", "X-Test: 3\r\n"}, {"/c", "X-Test: 3\r\n"},
		{"/a", ""}, {"/a", ""}, {"/a", ""},
	}
	for i, q := range seq {
		var resp h1.Response
		err := c.Do(&h1.Request{Method: "GET", URL: []byte(srv.url + q.path), Header: []byte(q.header), KeepBody: true, Timeout: 5 * time.Second}, &resp)
		want := "GET " + q.path
		if x, ok := strings.CutPrefix(q.header, "X-Test: "); ok {
			want += " " + strings.TrimSuffix(x, "\r\n")
		}
		if err != nil || string(resp.Body) != want {
			t.Fatalf("request %d: %q, %v; want %q", i, resp.Body, err, want)
		}
	}
	if len(c.conns) != 1 || c.sameBlocks < 4 {
		t.Fatalf("%d connections, %d blocks sent again; want 1 and 4 or more", len(c.conns), c.sameBlocks)
	}
}

func TestAllIndexed(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want bool
	}{
		{[]byte{0x82, 0x87, 0xbe}, true},
		{[]byte{0xff, 0x80, 0x01, 0x82}, true}, // index 127+128: a continued integer
		{[]byte{0x82, 0x40, 0x01, 'a', 0x01, 'b'}, false},
		{[]byte{0x3f, 0xe1, 0x1f, 0x82}, false}, // a table size update first
		{[]byte{}, true},
	} {
		if got := allIndexed(tc.b); got != tc.want {
			t.Errorf("allIndexed(% x) = %v, want %v", tc.b, got, tc.want)
		}
	}
}

// failingConn fails its writes once fail is set, with nothing written, as
// a socket that the server reset while idle does.
type failingConn struct {
	net.Conn
	fail *atomic.Bool
}

func (f failingConn) Write(p []byte) (int, error) {
	if f.fail.Load() {
		return 0, syscall.ECONNRESET
	}
	return f.Conn.Write(p)
}

// TestResetWhileIdle: a request whose write fails on a reused connection
// with nothing written goes out again on a new one; on a new connection
// the failure is the request's.
func TestResetWhileIdle(t *testing.T) {
	srv := startGo(t, false)
	var fails []*atomic.Bool
	c := New(Config{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		f := new(atomic.Bool)
		fails = append(fails, f)
		return failingConn{nc, f}, err
	}})
	defer c.Close()
	req := &h1.Request{Method: "GET", URL: []byte(srv.url + "/small"), Timeout: 5 * time.Second}
	var resp h1.Response
	if err := c.Do(req, &resp); err != nil {
		t.Fatal(err)
	}
	fails[0].Store(true)
	if err := c.Do(req, &resp); err != nil || resp.Status != 200 {
		t.Fatalf("status %d, %v; want it sent again on a new connection", resp.Status, err)
	}
	if len(fails) != 2 || c.retried != 1 || srv.served.Load() != 2 {
		t.Fatalf("%d connections, %d retried, %d served; want 2, 1, 2", len(fails), c.retried, srv.served.Load())
	}
	c2 := New(Config{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		f := new(atomic.Bool)
		f.Store(true)
		return failingConn{nc, f}, err
	}})
	defer c2.Close()
	if err := c2.Do(req, &resp); !errors.Is(err, syscall.ECONNRESET) || c2.retried != 0 {
		t.Fatalf("a new connection's failed write: %v, retried %d; want ECONNRESET, not sent again", err, c2.retried)
	}
}

// TestTraceparentNotIndexed: a traceparent new at every request neither
// reaches the tables nor keeps the rest of the block from being sent again,
// and the server reads each request's own.
func TestTraceparentNotIndexed(t *testing.T) {
	srv := startGo(t, false)
	c := New(Config{})
	defer c.Close()
	for i := range 8 {
		tp := fmt.Sprintf("00-%032x-%016x-01", i+1, i+1)
		var resp h1.Response
		req := &h1.Request{Method: "GET", URL: []byte(srv.url + "/t"), Header: []byte("X-Test: a\r\ntraceparent: " + tp + "\r\n"),
			KeepBody: true, Timeout: 5 * time.Second}
		if err := c.Do(req, &resp); err != nil || string(resp.Body) != "GET /t a tp="+tp {
			t.Fatalf("request %d: %q, %v", i, resp.Body, err)
		}
	}
	if c.sameBlocks < 6 {
		t.Fatalf("%d blocks sent again, want 6 or more: the traceparent kept the block from repeating", c.sameBlocks)
	}
}

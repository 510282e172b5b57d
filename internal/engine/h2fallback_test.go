package engine

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// serverConn counts what a server's connection read, and says when the
// server closed it.
type serverConn struct {
	net.Conn
	read   atomic.Int64
	closed chan struct{}
	once   sync.Once
}

func (c *serverConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *serverConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// serverListener keeps the connections it accepted.
type serverListener struct {
	net.Listener
	mu    sync.Mutex
	conns []*serverConn
}

func (l *serverListener) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c := &serverConn{Conn: nc, closed: make(chan struct{})}
	l.mu.Lock()
	l.conns = append(l.conns, c)
	l.mu.Unlock()
	return c, nil
}

// TestHTTP2FallbackCountsItsHandshakes: an http2: true request to a server
// whose ALPN does not choose h2 goes through net/http on a second
// connection; the first, whose handshake found that out, is the request's
// too: its bytes are in the request's Sent (what the server read on both),
// its connect and handshake in the request's.
func TestHTTP2FallbackCountsItsHandshakes(t *testing.T) {
	var atRequest atomic.Int64 // what the server had read on the request's connection when it came
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		atRequest.Store(r.Context().Value(serverConnKey{}).(*serverConn).read.Load())
		w.Write([]byte("ok"))
	}))
	ln := &serverListener{Listener: srv.Listener}
	srv.Listener = ln
	srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		return context.WithValue(ctx, serverConnKey{}, c.(*tls.Conn).NetConn())
	}
	srv.StartTLS() // http/1.1 only
	defer srv.Close()
	cases := []struct {
		name  string
		opts  Options
		conns int // the server's connections for the request
	}{
		{"lean: ALPN finds no h2, net/http sends it", Options{}, 2},
		{"net/http alone", Options{NetHTTP2: true}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ln.mu.Lock()
			ln.conns = nil
			ln.mu.Unlock()
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 1, MaxDuration: time.Minute}, get(srv.URL+"/"))
			s.HTTP2 = true
			rec := newTestRecorder()
			if err := New(&plan.Plan{Scenarios: []*plan.Scenario{s}, Insecure: true}, rec, c.opts).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			ln.mu.Lock()
			conns := ln.conns
			ln.mu.Unlock()
			if len(rec.reqs) != 1 || len(conns) != c.conns {
				t.Fatalf("%d requests on %d connections, want 1 on %d", len(rec.reqs), len(conns), c.conns)
			}
			want := atRequest.Load()
			for _, cn := range conns[:len(conns)-1] { // the connection that found out, closed once read
				select {
				case <-cn.closed:
				case <-time.After(5 * time.Second):
					t.Fatal("the server did not close the first connection")
				}
				want += cn.read.Load()
			}
			q := rec.reqs[0]
			if q.Sent != want || q.TLS <= 0 || q.Connecting <= 0 {
				t.Fatalf("sent %d, TLS %v, connect %v; want %d sent (the server read it), a handshake, a connect", q.Sent, q.TLS, q.Connecting, want)
			}
		})
	}
}

type serverConnKey struct{}

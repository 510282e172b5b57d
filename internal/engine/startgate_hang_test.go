package engine

import (
	"context"
	"crypto/sha1" //nolint:gosec // the WebSocket accept key is SHA-1 by RFC 6455
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// silentFirst is a listener that accepts its first n connections and never
// speaks on them (a TLS handshake or an upgrade request never answered),
// or, with hold, speaks as hold does until the client gives up; the later
// ones go to the server it is under. closed gets a value as the client
// gives up on a held one.
type silentFirst struct {
	net.Listener
	n      int
	hold   func(net.Conn) // nil: says nothing
	mu     sync.Mutex
	silent int
	closed chan struct{}
}

func (l *silentFirst) Accept() (net.Conn, error) {
	for range 1000 { // bounded: the silent ones are the first n
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		silent := l.silent < l.n
		if silent {
			l.silent++
		}
		l.mu.Unlock()
		if !silent {
			return c, nil
		}
		go func() {
			if l.hold != nil {
				l.hold(c)
			}
			_, _ = io.Copy(io.Discard, c) // until the client closes it
			_ = c.Close()
			l.closed <- struct{}{}
		}()
	}
	return nil, net.ErrClosed
}

// stallingConn is a server's connection that writes the first bytes
// first lets through of its first write, and then stalls: that write, or
// the next, waits until the client gives up (reading what it sends). Under
// a TLS server it answers a Client Hello and never finishes the handshake.
type stallingConn struct {
	net.Conn
	first func(p []byte) int
	wrote bool
}

func (c *stallingConn) Write(p []byte) (int, error) {
	k := 0
	if !c.wrote {
		c.wrote = true
		k = min(c.first(p), len(p))
	}
	n, err := c.Conn.Write(p[:k])
	if err != nil || k == len(p) {
		return n, err
	}
	_, _ = io.Copy(io.Discard, c.Conn) // the stall: until the client gives up
	return n, net.ErrClosed
}

// tlsStall is a held connection's TLS server (config from cfg, which the
// server has set by the time it accepts, versions capped at maxVersion)
// over a stallingConn letting through first of its first flight.
func tlsStall(cfg func() *tls.Config, maxVersion uint16, first func([]byte) int) func(net.Conn) {
	return func(c net.Conn) {
		conf := cfg().Clone()
		conf.MaxVersion = maxVersion
		_ = tls.Server(&stallingConn{Conn: c, first: first}, conf).Handshake()
	}
}

// wholeFlight lets a server's first flight through (TLS 1.2: Server Hello,
// certificate, key exchange, Hello Done); its answer to the client's
// Finished is withheld.
func wholeFlight(p []byte) int { return len(p) }

// firstRecord lets the first TLS record through (TLS 1.3: the Server
// Hello; the encrypted rest of the flight is withheld).
func firstRecord(p []byte) int {
	if len(p) < 5 {
		return len(p)
	}
	return 5 + int(p[3])<<8 | int(p[4])
}

// tlsDone makes the handshake and then says nothing: the request, or the
// upgrade request, is never answered.
func tlsDone(cfg func() *tls.Config) func(net.Conn) {
	return func(c net.Conn) { _ = tls.Server(c, cfg()).Handshake() }
}

// upgraded answers a WebSocket upgrade (RFC 6455's 101) by hand, tells
// arrived, and holds the session until the client closes it.
func upgraded(arrived chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")) //nolint:gosec // RFC 6455
		c, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		fmt.Fprintf(rw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
			base64.StdEncoding.EncodeToString(sum[:]))
		if rw.Flush() == nil {
			arrived <- struct{}{}
		}
		_, _ = io.Copy(io.Discard, c)
	}
}

// held answers nothing: it tells arrived and holds the request until the
// VU's end.
func held(arrived chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
	}
}

// TestStartGateIsLeftByAHangingConnect: a VU whose first connection hangs
// after its dial (the server accepts and never answers its TLS Client
// Hello, or its WebSocket upgrade request), or whose WebSocket dial hangs,
// leaves the start gate after the grace, as an HTTP request's hanging dial
// does (TestStartGateIsLeftByAHangingDial): the VUs behind it start and
// reach the server while every hung one still waits. Before, the gate's
// first VUs held it until their handshake or stall timeout (30 s, 1 min
// here) and nothing else started.
func TestStartGateIsLeftByAHangingConnect(t *testing.T) {
	const vus, gate = 12, 3
	// The held connections' TLS servers' configuration: the test server's.
	type holdFor func(cfg func() *tls.Config) func(net.Conn)
	tls12Stall := func(cfg func() *tls.Config) func(net.Conn) { return tlsStall(cfg, tls.VersionTLS12, wholeFlight) }
	tls13Stall := func(cfg func() *tls.Config) func(net.Conn) { return tlsStall(cfg, tls.VersionTLS13, firstRecord) }
	tests := []struct {
		name, scheme string
		netHTTP      bool
		hangDial     bool    // the dial hangs, rather than the server's answer
		hold         holdFor // what the server says on a held connection: nothing when nil
	}{
		{name: "lean client, TLS handshake unanswered", scheme: "https"},
		{name: "net/http, TLS handshake unanswered", scheme: "https", netHTTP: true},
		{name: "wss, TLS handshake unanswered", scheme: "wss"},
		{name: "ws, upgrade unanswered", scheme: "ws"},
		{name: "ws, dial hanging", scheme: "ws", hangDial: true},
		// the server answers the Client Hello, then stalls the handshake (issue 22)
		{name: "lean client, TLS 1.2 server's Finished withheld", scheme: "https", hold: tls12Stall},
		{name: "net/http, TLS 1.2 server's Finished withheld", scheme: "https", netHTTP: true, hold: tls12Stall},
		{name: "wss, TLS 1.2 server's Finished withheld", scheme: "wss", hold: tls12Stall},
		{name: "lean client, TLS 1.3 flight stalled after the Server Hello", scheme: "https", hold: tls13Stall},
		{name: "net/http, TLS 1.3 flight stalled after the Server Hello", scheme: "https", netHTTP: true, hold: tls13Stall},
		// the handshake done, the request is written: the VU leaves as it is
		{name: "lean client, handshake done, request unanswered", scheme: "https", hold: tlsDone},
		{name: "wss, handshake done, upgrade unanswered", scheme: "wss", hold: tlsDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arrived := make(chan struct{}, vus)
			handler := held(arrived)
			if tt.scheme == "ws" || tt.scheme == "wss" {
				handler = upgraded(arrived)
			}
			srv := httptest.NewUnstartedServer(handler)
			ln := &silentFirst{Listener: srv.Listener, n: gate, closed: make(chan struct{}, gate)}
			if tt.hold != nil {
				ln.hold = tt.hold(func() *tls.Config { return srv.TLS }) // set by StartTLS before the server accepts
			}
			if tt.hangDial {
				ln.n = 0
			}
			srv.Listener = ln
			if tt.scheme == "https" || tt.scheme == "wss" {
				srv.StartTLS()
			} else {
				srv.Start()
			}
			t.Cleanup(srv.Close)
			var control func(context.Context, string, string, syscall.RawConn) error
			if tt.hangDial {
				control = hangFirstDials(gate, ln.closed)
			}
			e := hangingRun(t, tt.scheme+"://"+ln.Addr().String()+"/", vus, Options{NetHTTPOnly: tt.netHTTP})
			e.startGate, e.startGateGrace = gate, 10*time.Millisecond
			if tt.hold != nil {
				// the real grace (250 ms), so that the server's answer, in ms on the
				// loopback, has come by its first check: in 10 ms, under load, the
				// Client Hello still unanswered left the gate before the stall
				e.startGateGrace = 0
			}
			e.dialer.ControlContext = control
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			done := make(chan error, 1)
			go func() { done <- e.Run(ctx) }()
			bound := time.After(10 * time.Second) // the hung ones last 30 s (TLS) or a minute
			for seen := 0; seen < vus-gate; {
				select {
				case <-arrived:
					seen++
				case <-ln.closed:
					t.Fatalf("a hung connection ended before the VUs behind it reached the server (%d of %d): they waited for it", seen, vus-gate)
				case <-bound:
					t.Fatalf("%d of the %d VUs behind %d hung connections reached the server: the gate held them", seen, vus-gate, gate)
				}
			}
			endRun(t, cancel, done)
		})
	}
}

// hangingRun is an engine running vus closed-model VUs that start at once,
// each opening one request (http, https) or WebSocket session (ws, wss)
// to url, whose timeouts outlast the test.
func hangingRun(t *testing.T, url string, vus int, opts Options) *Engine {
	t.Helper()
	var p *plan.Plan
	if u := []byte(url); string(u[:2]) == "ws" {
		src := fmt.Sprintf("scenarios:\n  s:\n    vus: %d\n    duration: 1m\n    flow:\n      - ws: %s\n        duration: 1m\n        timeout: 1m\n", vus, url)
		var err error
		if p, err = plan.Parse("t.yaml", []byte(src), nil); err != nil {
			t.Fatal(err)
		}
	} else {
		load := plan.Load{Model: plan.VUs, Stages: []plan.Stage{{Duration: 20 * time.Millisecond, Target: float64(vus)},
			{Duration: time.Minute, Target: float64(vus)}}}
		req := get(url)
		req.Request.Timeout = time.Minute
		p = &plan.Plan{Scenarios: []*plan.Scenario{scenario(load, req, think(time.Minute))}}
	}
	p.Insecure = true
	return New(p, newTestRecorder(), opts)
}

// hangFirstDials is a dialer's control that holds the first n dials until
// their context ends (the connect timeout, the run's end), telling closed
// as each gives up.
func hangFirstDials(n int, closed chan<- struct{}) func(context.Context, string, string, syscall.RawConn) error {
	var mu sync.Mutex
	hung := 0
	return func(ctx context.Context, _, _ string, _ syscall.RawConn) error {
		mu.Lock()
		hang := hung < n
		if hang {
			hung++
		}
		mu.Unlock()
		if !hang {
			return nil
		}
		<-ctx.Done()
		closed <- struct{}{}
		return ctx.Err()
	}
}

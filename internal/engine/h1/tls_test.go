package h1

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/testkit"
)

// tlsClient returns a client with the TLS configuration cfg.
func tlsClient(cfg *tls.Config) *Client {
	return New(Config{Dialer: &net.Dialer{}, TLS: cfg, HandshakeTimeout: 10 * time.Second})
}

// TestDoOverTLSAllocatesOnlyInCryptoTLS: after the handshake, a request
// over TLS allocates nothing of the lean client's own. crypto/tls itself
// allocates 16 bytes each time a record read needs the socket (its
// atLeastReader escapes: golang/go#53142), on the client and on the
// in-process server alike, so the bar is what crypto/tls alone costs for
// one request and its response against the same server.
func TestDoOverTLSAllocatesOnlyInCryptoTLS(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector sync.Pool drops items at random: crypto/tls's allocations vary")
	}
	srvCfg, cliCfg := h1test.Certs(t)
	url := h1test.FixedTLSServer(t, srvCfg)

	raw, err := tls.Dial("tcp", strings.TrimPrefix(url, "https://"), cliCfg)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	msg := []byte("GET /x?y=1 HTTP/1.1\r\nHost: h\r\nUser-Agent: loadlens\r\nX-A: b\r\n\r\n")
	buf := make([]byte, 4096)
	bare := func() {
		if _, err := raw.Write(msg); err != nil {
			t.Fatal(err)
		}
		for n := 0; n < len(h1test.FixedReply); {
			m, err := raw.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			n += m
		}
	}
	cl := tlsClient(cliCfg)
	defer cl.Close()
	req := &Request{Method: "GET", URL: []byte(url + "/x?y=1"), Header: []byte("X-A: b\r\n"), Timeout: time.Second}
	var resp Response
	lean := func() {
		if err := cl.Do(req, &resp); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 { // warm up: handshakes, buffers, crypto/tls's pools
		bare()
		lean()
	}
	base := testing.AllocsPerRun(500, bare)
	n := testing.AllocsPerRun(500, lean)
	t.Logf("allocations per request and response: crypto/tls alone %v, the lean client %v (both ends of the connection)", base, n)
	if n > base {
		t.Fatalf("%v allocations per request over TLS, crypto/tls alone makes %v: the lean client allocates", n, base)
	}
	if resp.Status != 200 || resp.TLS != 0 {
		t.Fatalf("status %d, handshake %v: want 200 on the kept-alive connection", resp.Status, resp.TLS)
	}
}

// countedConn counts the bytes a server's socket carries.
type countedConn struct {
	net.Conn
	read, written atomic.Int64
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}

// wireCount is what a server's socket had carried when it had answered.
type wireCount struct {
	conn          int
	read, written int64
	resumed       bool
}

// countingTLSServer answers every request with ok, closing the connection
// after the replies whose index is in closeAfter, and sends on counts, after
// each answer, the bytes its socket carried so far.
func countingTLSServer(t *testing.T, cfg *tls.Config, closeAfter ...int) (string, <-chan wireCount) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	counts := make(chan wireCount, 16)
	go func() {
		answered := 0
		for conn := 1; ; conn++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			cc := &countedConn{Conn: c}
			tc := tls.Server(cc, cfg)
			br := bufio.NewReader(tc)
			for {
				if _, err := http.ReadRequest(br); err != nil {
					break
				}
				last := false
				for _, i := range closeAfter {
					last = last || i == answered
				}
				reply := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
				if last {
					reply = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"
				}
				tc.Write([]byte(reply))
				answered++
				counts <- wireCount{conn, cc.read.Load(), cc.written.Load(), tc.ConnectionState().DidResume}
				if last {
					break
				}
			}
			tc.Close()
		}
	}()
	return "https://" + ln.Addr().String(), counts
}

// TestTLSBytesAreWhatTheSocketCarried: over https, Sent and Received are
// the bytes the socket carried, TLS records and handshakes included, as
// the server's own count of its socket says; the first request of a
// connection carries its handshake, and a second connection resumes the
// session of the first (a smaller handshake).
func TestTLSBytesAreWhatTheSocketCarried(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	url, counts := countingTLSServer(t, srvCfg, 1) // the second answer closes its connection
	cl := tlsClient(cliCfg)
	defer cl.Close()
	var prev wireCount
	var firstReceived [3]int64 // by connection
	for i := range 4 {
		resp, err := do(t, cl, "GET", url+"/x", true)
		if err != nil {
			t.Fatal(err)
		}
		var srv wireCount
		select {
		case srv = <-counts:
		case <-time.After(5 * time.Second):
			t.Fatal("the server never counted")
		}
		if srv.conn != prev.conn {
			prev = wireCount{conn: srv.conn}
			firstReceived[srv.conn] = resp.Received
			if resp.TLS <= 0 || resp.Connect <= 0 {
				t.Errorf("request %d opened connection %d without a timed connect and handshake: %+v", i, srv.conn, resp)
			}
			if resumed := srv.conn == 2; srv.resumed != resumed {
				t.Errorf("connection %d resumed = %v, want %v", srv.conn, srv.resumed, resumed)
			}
		} else if resp.TLS != 0 || resp.Connect != 0 {
			t.Errorf("request %d on a kept-alive connection timed a connect or handshake: %+v", i, resp)
		}
		if resp.Sent != srv.read-prev.read || resp.Received != srv.written-prev.written {
			t.Errorf("request %d: sent %d, received %d; the server's socket read %d and wrote %d",
				i, resp.Sent, resp.Received, srv.read-prev.read, srv.written-prev.written)
		}
		prev = srv
	}
	if firstReceived[2] >= firstReceived[1] {
		t.Errorf("the resumed handshake received %d bytes, the full one %d: want fewer (no certificate)", firstReceived[2], firstReceived[1])
	}
}

// TestSessionsArePerClient: each Client (a VU) resumes only the sessions it
// made itself, as one browser does: a second client's first handshake is
// a full one.
func TestSessionsArePerClient(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	url, counts := countingTLSServer(t, srvCfg, 0, 1, 2)
	var resumed []bool
	for _, cl := range []*Client{tlsClient(cliCfg), tlsClient(cliCfg)} {
		for range 2 {
			if _, err := do(t, cl, "GET", url, false); err != nil {
				t.Fatal(err)
			}
			select {
			case c := <-counts:
				resumed = append(resumed, c.resumed)
			case <-time.After(5 * time.Second):
				t.Fatal("the server never counted")
			}
		}
		cl.Close()
	}
	if want := []bool{false, true, false, true}; !equalBools(resumed, want) {
		t.Fatalf("connections resumed %v, want %v", resumed, want)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// helloServer is a TLS server that records each ClientHello and answers
// ok over whatever protocol it negotiated.
func helloServer(t *testing.T, cfg *tls.Config) (url string, hellos <-chan *tls.ClientHelloInfo, hosts <-chan string) {
	t.Helper()
	hc, hostc := make(chan *tls.ClientHelloInfo, 8), make(chan string, 8)
	cfg = cfg.Clone()
	cfg.GetConfigForClient = func(h *tls.ClientHelloInfo) (*tls.Config, error) {
		hc <- h
		return nil, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				tc := tls.Server(c, cfg)
				defer tc.Close()
				req, err := http.ReadRequest(bufio.NewReader(tc))
				if err != nil {
					return
				}
				hostc <- req.Host
				tc.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
			}()
		}
	}()
	return "https://" + ln.Addr().String(), hc, hostc
}

// TestSNIAndHostOverride: the TLS server name (SNI, and the name the
// certificate is checked against) is the URL's host, whatever Host header
// the step sets, as net/http and k6 do; an IP address is not sent as SNI.
// ALPN offers http/1.1 alone, so a server that also speaks HTTP/2 answers
// over HTTP/1.1.
func TestSNIAndHostOverride(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	srvCfg.NextProtos = []string{"h2", "http/1.1"}
	url, hellos, hosts := helloServer(t, srvCfg)
	port := url[strings.LastIndexByte(url, ':'):]
	cases := []struct {
		name, url, host     string
		wantSNI, wantHeader string
	}{
		{"a name", "https://localhost" + port + "/", "", "localhost", "localhost" + port},
		{"a name with a Host override", "https://localhost" + port + "/", "shop.example", "localhost", "shop.example"},
		{"an IP address", "https://127.0.0.1" + port + "/", "", "", "127.0.0.1" + port},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := tlsClient(cliCfg)
			defer cl.Close()
			req := &Request{Method: "GET", URL: []byte(c.url), Timeout: 5 * time.Second}
			if c.host != "" {
				req.Host = []byte(c.host)
			}
			if err := cl.Do(req, &Response{}); err != nil {
				t.Fatal(err)
			}
			h, host := <-hellos, <-hosts
			if h.ServerName != c.wantSNI || host != c.wantHeader {
				t.Errorf("SNI %q, Host %q; want %q, %q", h.ServerName, host, c.wantSNI, c.wantHeader)
			}
			if len(h.SupportedProtos) != 1 || h.SupportedProtos[0] != "http/1.1" {
				t.Errorf("ALPN offered %q, want [http/1.1]", h.SupportedProtos)
			}
			// net/http, the reference: the same request shows the same SNI.
			tr := &http.Transport{TLSClientConfig: cliCfg.Clone()}
			defer tr.CloseIdleConnections()
			hr, _ := http.NewRequest("GET", c.url, nil)
			if c.host != "" {
				hr.Host = c.host
			}
			resp, err := tr.RoundTrip(hr)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if nh := <-hellos; nh.ServerName != h.ServerName {
				t.Errorf("net/http sent SNI %q, the lean client %q", nh.ServerName, h.ServerName)
			}
			<-hosts
		})
	}
}

// TestTLSHandshakeFailures: a handshake that fails is a *HandshakeError
// whose message is crypto/tls's own (the engine classifies it as kind tls
// with net/http's wording), and nothing is sent.
func TestTLSHandshakeFailures(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	otherCfg, _ := h1test.Certs(t, "other.example")
	noALPN := srvCfg.Clone()
	noALPN.NextProtos = []string{"spdy/3"} // Go lets an http/1.1 client reach an h2-only server; OpenSSL servers answer this way

	tlsServe := func(cfg *tls.Config) func(c net.Conn) {
		return func(c net.Conn) {
			tc := tls.Server(c, cfg)
			tc.Handshake()
			io.Copy(io.Discard, tc)
		}
	}
	isTimeout := func(err error) bool {
		var ne net.Error
		return errors.As(err, &ne) && ne.Timeout()
	}
	cases := []struct {
		name   string
		serve  func(c net.Conn)
		client *tls.Config
		check  func(error) bool
		want   string
	}{
		{"unknown authority", tlsServe(srvCfg), nil,
			func(err error) bool { var e x509.UnknownAuthorityError; return errors.As(err, &e) }, "x509.UnknownAuthorityError"},
		{"a certificate for another host", tlsServe(otherCfg), &tls.Config{RootCAs: x509.NewCertPool(), InsecureSkipVerify: false},
			func(err error) bool { var e *tls.CertificateVerificationError; return errors.As(err, &e) }, "*tls.CertificateVerificationError"},
		{"plain HTTP on the TLS port", func(c net.Conn) {
			readHello(c)
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
		}, cliCfg, func(err error) bool { var e tls.RecordHeaderError; return errors.As(err, &e) }, "tls.RecordHeaderError"},
		{"closed during the handshake", readHello, cliCfg,
			func(err error) bool { return errors.Is(err, io.EOF) }, "io.EOF"},
		{"no answer: the handshake timeout", func(c net.Conn) { time.Sleep(2 * time.Second) }, cliCfg, isTimeout, "a net.Error with Timeout()"},
		{"a server that speaks none of the offered protocols", tlsServe(noALPN), cliCfg,
			func(err error) bool {
				return strings.HasSuffix(err.Error(), "remote error: tls: no application protocol")
			}, "the alert no_application_protocol"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				c2, err := ln.Accept()
				if err != nil {
					return
				}
				defer c2.Close()
				c.serve(c2)
			}()
			cl := New(Config{Dialer: &net.Dialer{}, TLS: c.client, HandshakeTimeout: 300 * time.Millisecond})
			defer cl.Close()
			var resp Response
			err = cl.Do(&Request{Method: "GET", URL: []byte("https://" + ln.Addr().String() + "/"), Timeout: 10 * time.Second}, &resp)
			var hs *HandshakeError
			if !errors.As(err, &hs) || !c.check(err) {
				t.Fatalf("err = %v (%T), want a *HandshakeError wrapping %s", err, err, c.want)
			}
			if resp.Sent == 0 || resp.Status != 0 || resp.Wrote != (time.Time{}) {
				t.Errorf("response %+v: want the ClientHello counted and no request written", resp)
			}
		})
	}
}

// readHello reads a ClientHello record whole, so that closing afterwards
// sends a FIN, not the reset that unread bytes would cause.
func readHello(c net.Conn) {
	var hdr [5]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return
	}
	io.ReadFull(c, make([]byte, int(hdr[3])<<8|int(hdr[4])))
}

// TestInsecureSkipsVerification: with InsecureSkipVerify (the test's
// insecure_skip_tls_verify), a certificate nobody trusts is accepted.
func TestInsecureSkipsVerification(t *testing.T) {
	srvCfg, _ := h1test.Certs(t, "other.example")
	url := h1test.FixedTLSServer(t, srvCfg)
	cl := tlsClient(&tls.Config{InsecureSkipVerify: true})
	defer cl.Close()
	if resp, err := do(t, cl, "GET", url, true); err != nil || string(resp.Body) != "ok" {
		t.Fatalf("err %v, body %q", err, resp.Body)
	}
}

// TestAbortDuringHandshake: Abort ends a request whose TLS handshake the
// server never answers at once, not at the handshake timeout (a minute).
func TestAbortDuringHandshake(t *testing.T) {
	_, cliCfg := h1test.Certs(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- c // and never answer the ClientHello
		}
	}()
	cl := New(Config{Dialer: &net.Dialer{}, TLS: cliCfg, HandshakeTimeout: time.Minute})
	defer cl.Close()
	done := startDo(cl, "https://"+ln.Addr().String()+"/", time.Minute)
	select {
	case c := <-accepted:
		defer c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("the client never connected")
	}
	for end := time.Now().Add(5 * time.Second); !cl.g.InUse(); { // poll, bounded, until the handshake runs
		if time.Now().After(end) {
			t.Fatal("the handshake never started")
		}
		time.Sleep(time.Millisecond)
	}
	abortAndWait(t, cl, done)
}

// BenchmarkHandshake is the cost of opening an https connection and
// sending one request on it, with a full handshake and with a resumed one
// (the client's session cache), client and server in this process.
func BenchmarkHandshake(b *testing.B) {
	srvCfg, cliCfg := h1test.Certs(b)
	url := h1test.FixedTLSServer(b, srvCfg)
	for _, c := range []struct {
		name   string
		resume bool
	}{{"full", false}, {"resumed", true}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := cliCfg.Clone()
			if c.resume {
				cfg.ClientSessionCache = tls.NewLRUClientSessionCache(1)
			} else {
				cfg.SessionTicketsDisabled = true
			}
			req := &Request{Method: "GET", URL: []byte(url + "/x"), Timeout: 5 * time.Second}
			var resp Response
			b.ReportAllocs()
			defer testkit.CPUMeter(b)()
			for b.Loop() {
				cl := tlsClient(cfg)
				if err := cl.Do(req, &resp); err != nil {
					b.Fatal(err)
				}
				cl.Close()
			}
		})
	}
}

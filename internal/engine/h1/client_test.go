package h1

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
	"github.com/loadlens/loadlens/internal/testkit"
)

// scheme is how a test server speaks: plain HTTP, or HTTP over TLS with a
// certificate only its clients trust.
type scheme struct {
	name           string
	server, client *tls.Config // nil over plain HTTP
}

// schemes returns plain HTTP and HTTPS, so a table test runs over both.
func schemes(t testing.TB) []scheme {
	srv, cli := h1test.Certs(t)
	return []scheme{{name: "http"}, {name: "https", server: srv, client: cli}}
}

func (s scheme) secure() bool { return s.server != nil }

// listen returns a loopback listener whose connections speak s, and the
// base URL to reach it.
func (s scheme) listen(t testing.TB) (net.Listener, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if s.secure() {
		return tls.NewListener(ln, s.server), "https://" + ln.Addr().String()
	}
	return ln, "http://" + ln.Addr().String()
}

// newClient returns a client for s's servers.
func (s scheme) newClient() *Client {
	return New(Config{Dialer: &net.Dialer{}, TLS: s.client, HandshakeTimeout: 10 * time.Second})
}

// rawServer answers each request on a connection with the next of replies,
// written as is (in pieces separated by "|" to split it over writes), and
// closes the connection after a reply ending in "<close>".
func rawServer(t *testing.T, replies ...string) (string, *atomic.Int64) {
	t.Helper()
	url, conns, _ := rawServerCounted(t, replies...)
	return url, conns
}

// rawServerCounted is rawServer that also counts the requests it read.
func rawServerCounted(t *testing.T, replies ...string) (url string, conns, reqs *atomic.Int64) {
	t.Helper()
	return rawServerOn(t, scheme{name: "http"}, replies...)
}

// rawServerOn is rawServerCounted speaking sc.
func rawServerOn(t *testing.T, sc scheme, replies ...string) (url string, conns, reqs *atomic.Int64) {
	t.Helper()
	url, conns, reqs, _ = rawServerClosing(t, sc, replies...)
	return url, conns, reqs
}

// rawServerClosing is rawServerOn that also says when it closed a
// connection, on closed. A reply ending in "<reset>" closes with a reset
// (SO_LINGER 0) instead; a reply of "<unread>" waits for the next
// request's first bytes and closes without reading it (nor counting it).
func rawServerClosing(t *testing.T, sc scheme, replies ...string) (url string, conns, reqs *atomic.Int64, closed <-chan struct{}) {
	t.Helper()
	ln, url := sc.listen(t)
	conns, reqs = new(atomic.Int64), new(atomic.Int64)
	ends := make(chan struct{}, len(replies)+8)
	go func() {
		next := 0
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			if rawServe(c, replies, &next, reqs) {
				rawTCP(c).SetLinger(0)
			}
			c.Close()
			select {
			case ends <- struct{}{}:
			default: // nobody waits for this close
			}
		}
	}()
	return url, conns, reqs, ends
}

// rawServe answers requests on c with replies from *next until one closes
// the connection; reset says that one asked for a reset.
func rawServe(c net.Conn, replies []string, next *int, reqs *atomic.Int64) (reset bool) {
	br := bufio.NewReader(c)
	for *next < len(replies) {
		reply := replies[*next]
		if reply == "<unread>" {
			*next++
			awaitBytes(rawTCP(c))
			return false // closing with the request unread resets it
		}
		req, err := http.ReadRequest(br)
		if err != nil {
			return false
		}
		io.Copy(io.Discard, req.Body)
		reqs.Add(1)
		*next++
		reset = strings.HasSuffix(reply, "<reset>")
		closeAfter := reset || strings.HasSuffix(reply, "<close>")
		reply = strings.TrimSuffix(strings.TrimSuffix(reply, "<close>"), "<reset>")
		for _, piece := range strings.Split(reply, "|") {
			c.Write([]byte(piece))
		}
		if closeAfter {
			return reset
		}
	}
	return false
}

// rawTCP returns the TCP connection under c, a TLS one's included.
func rawTCP(c net.Conn) *net.TCPConn {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	return c.(*net.TCPConn)
}

func do(t *testing.T, c *Client, method, url string, keep bool) (*Response, error) {
	t.Helper()
	var resp Response
	err := c.Do(&Request{Method: method, URL: []byte(url), KeepBody: keep, Timeout: 2 * time.Second}, &resp)
	return &resp, err
}

// framingReply is a well-formed reply and what it must read as.
type framingReply struct {
	name     string
	method   string
	reply    string
	status   int
	body     string
	received int
}

func responseFramingCases() []framingReply {
	return []framingReply{
		{"content length", "GET", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, "hello", 43},
		{"split over writes", "GET", "HTTP/1.1 200 OK\r\nContent-Le|ngth: 5\r\n\r|\nhel|lo", 200, "hello", 43},
		{"chunked with extension and trailer", "GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n", 200, "hello world", 0},
		{"no length: until close", "GET", "HTTP/1.1 200 OK\r\n\r\nstream<close>", 200, "stream", 0},
		{"no content", "GET", "HTTP/1.1 204 No Content\r\n\r\n", 204, "", 0},
		{"HEAD has no body", "HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", 200, "", 0},
		{"HTTP/1.0 reason with spaces", "GET", "HTTP/1.0 404 Not Found Here\r\nContent-Length: 2\r\n\r\nno", 404, "no", 0},
		{"no reason phrase", "GET", "HTTP/1.1 500\r\nContent-Length: 0\r\n\r\n", 500, "", 0},
	}
}

func TestResponseFraming(t *testing.T) {
	cases := responseFramingCases()
	for _, sc := range schemes(t) {
		for _, c := range cases {
			t.Run(sc.name+"/"+c.name, func(t *testing.T) {
				url, _, _ := rawServerOn(t, sc, c.reply)
				cl := sc.newClient()
				defer cl.Close()
				resp, err := do(t, cl, c.method, url+"/x", true)
				if err != nil {
					t.Fatal(err)
				}
				if resp.Status != c.status || string(resp.Body) != c.body {
					t.Fatalf("got %d %q, want %d %q", resp.Status, resp.Body, c.status, c.body)
				}
				if c.received > 0 && !sc.secure() && resp.Received != int64(c.received) { // https counts TLS records: see TestTLSBytesAreWhatTheSocketCarried
					t.Errorf("received %d bytes, want %d", resp.Received, c.received)
				}
				if resp.Sent == 0 || resp.Wrote.IsZero() || resp.FirstByte.Before(resp.Wrote) || resp.Connect <= 0 || sc.secure() != (resp.TLS > 0) {
					t.Errorf("timings/sizes not set: %+v", resp)
				}
			})
		}
	}
}

// malformedReply is a bad reply and the error it must give.
type malformedReply struct {
	name  string
	reply string
	want  error
}

func malformedCases() []malformedReply {
	return []malformedReply{
		{"not HTTP", "SSH-2.0-OpenSSH\r\n\r\n", ErrMalformed},
		{"bad status code", "HTTP/1.1 2x0 OK\r\n\r\n", ErrMalformed},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", ErrMalformed},
		{"body cut short", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc<close>", io.ErrUnexpectedEOF},
		{"header cut short", "HTTP/1.1 200 OK\r\nContent-<close>", io.ErrUnexpectedEOF},
		{"header too big", "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", 70<<10) + "\r\n\r\n", ErrHeaderTooBig},
		// nginx 1.22's `listen … http2` without ssl, as read off the wire: SETTINGS, WINDOW_UPDATE, GOAWAY.
		{"h2c: HTTP/2 frames, then a close", h2cNginx + "<close>", ErrHTTP2Cleartext},
		{"h2c: a SETTINGS frame with an LF in it", "\x00\x00\x06\x04\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x0a<close>", ErrHTTP2Cleartext},
	}
}

// h2cNginx is what nginx sent an HTTP/1.1 request on a plain http2 listen.
const h2cNginx = "\x00\x00\x12\x04\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x80\x00\x04\x00\x01\x00\x00\x00\x05\x00\xff\xff\xff" +
	"\x00\x00\x04\x08\x00\x00\x00\x00\x00\x7f\xff\x00\x00" +
	"\x00\x00\x08\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01"

func TestMalformedResponses(t *testing.T) {
	cases := malformedCases()
	for _, sc := range schemes(t) {
		for _, c := range cases {
			t.Run(sc.name+"/"+c.name, func(t *testing.T) {
				url, _, _ := rawServerOn(t, sc, c.reply)
				cl := sc.newClient()
				defer cl.Close()
				if _, err := do(t, cl, "GET", url, false); !errors.Is(err, c.want) {
					t.Fatalf("err = %v, want %v", err, c.want)
				}
			})
		}
	}
}

func TestKeepAliveReuseAndRetry(t *testing.T) {
	ok := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	cases := []struct {
		name      string
		replies   []string
		method    string
		wantConns int64
		wantErr   bool
		wantReqs  int64 // the requests the server read, of the 3 sent
	}{
		{"reused for every request", []string{ok, ok, ok}, "GET", 1, false, 3},
		{"Connection: close opens a new one", []string{"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok<close>", ok, ok}, "GET", 2, false, 3},
		{"idle close is retried for GET", []string{ok + "<close>", ok, ok}, "GET", 2, false, 3},
		{"idle reset is retried for GET", []string{ok + "<reset>", ok, ok}, "GET", 2, false, 3},
		// The server reads the second request on the kept-alive connection
		// and closes it unanswered, or resets it: the target received it,
		// so it fails and is never sent again, whatever its method (a
		// resent GET would be a request the target saw twice and the run
		// counted once).
		{"close without a reply on reuse fails a GET", []string{ok, "<close>", ok, ok}, "GET", 2, true, 3},
		{"close without a reply on reuse fails a POST", []string{ok, "<close>", ok, ok}, "POST", 2, true, 3},
		{"reset without a reply on reuse fails a GET", []string{ok, "<reset>", ok, ok}, "GET", 2, true, 3},
		{"reset without a reply on reuse fails a POST", []string{ok, "<reset>", ok, ok}, "POST", 2, true, 3},
		// A server that closes with the request unread in its buffer resets
		// it as one that read it and reset does: the client cannot tell
		// them apart, so it counts the request, failed, and the server
		// counts one less (docs/http-client.md, Reused connections).
		{"close with the request unread fails a GET", []string{ok, "<unread>", ok, ok}, "GET", 2, true, 2},
	}
	for _, sc := range schemes(t) {
		for _, c := range cases {
			t.Run(sc.name+"/"+c.name, func(t *testing.T) {
				url, conns, reqs, closed := rawServerClosing(t, sc, c.replies...)
				cl := sc.newClient()
				defer cl.Close()
				var gotErr bool
				for i := range 3 {
					resp, err := do(t, cl, c.method, url, true)
					if r := c.replies[i]; strings.HasSuffix(r, "<close>") || strings.HasSuffix(r, "<reset>") {
						awaitClose(t, closed) // the next request goes out after the close, as from an idle client
					}
					if err != nil {
						gotErr = true
						continue
					}
					if string(resp.Body) != "ok" {
						t.Fatalf("body %q", resp.Body)
					}
				}
				if gotErr != c.wantErr {
					t.Fatalf("error seen = %v, want %v", gotErr, c.wantErr)
				}
				if !c.wantErr && conns.Load() != c.wantConns {
					t.Fatalf("%d connections, want %d", conns.Load(), c.wantConns)
				}
				if n := reqs.Load(); n != c.wantReqs {
					t.Fatalf("the server read %d requests, want %d: one was sent twice", n, c.wantReqs)
				}
			})
		}
	}
}

// awaitClose waits until the server closed a connection.
func awaitClose(t *testing.T, closed <-chan struct{}) {
	t.Helper()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not close the connection")
	}
}

func TestTimeoutAndAbort(t *testing.T) {
	hold := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hold)
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	var resp Response
	start := time.Now()
	err := cl.Do(&Request{Method: "GET", URL: []byte(srv.URL), Timeout: 100 * time.Millisecond}, &resp)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || time.Since(start) > time.Second {
		t.Fatalf("err = %v after %v, want a timeout after ~100ms", err, time.Since(start))
	}
	done := make(chan error)
	go func() {
		done <- cl.Do(&Request{Method: "GET", URL: []byte(srv.URL), Timeout: time.Minute}, &Response{})
	}()
	// Abort must unblock a request in flight whenever it lands
	time.AfterFunc(50*time.Millisecond, cl.Abort)
	select {
	case err := <-done:
		if !errors.Is(err, ErrAborted) {
			t.Fatalf("err = %v, want ErrAborted", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Abort did not unblock Do")
	}
}

func TestRequestWireFormat(t *testing.T) {
	got := make(chan *http.Request, 1)
	bodies := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r
		bodies <- string(b)
		w.Header().Set("X-Multi", "a")
		w.Header().Add("x-multi", "b")
	}))
	defer srv.Close()
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	var resp Response
	err := cl.Do(&Request{Method: "POST", URL: []byte(srv.URL + "?q=1&r=%20"), Header: []byte("Content-Type: application/json\r\nX-Id: 7\r\n"),
		Body: []byte(`{"a":1}`), Timeout: time.Second}, &resp)
	if err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.Method != "POST" || r.URL.RequestURI() != "/?q=1&r=%20" || r.Header.Get("X-Id") != "7" || r.Host != strings.TrimPrefix(srv.URL, "http://") ||
		r.ContentLength != 7 || <-bodies != `{"a":1}` {
		t.Fatalf("server saw %s %s host %s headers %v length %d", r.Method, r.URL.RequestURI(), r.Host, r.Header, r.ContentLength)
	}
	if v := HeaderValues(resp.Header, "X-MULTI", nil); len(v) != 2 || v[0] != "a" || v[1] != "b" {
		t.Errorf("HeaderValues = %v", v)
	}
}

func TestBadURLs(t *testing.T) {
	cl := NewClient(&net.Dialer{})
	for _, u := range []string{"httpx://x/", "https:/x/", "http://", "ftp://x", "http://x/a b", "http://x/\r\nX: y"} {
		if err := cl.Do(&Request{Method: "GET", URL: []byte(u), Timeout: time.Second}, &Response{}); !errors.Is(err, ErrBadURL) {
			t.Errorf("Do(%q) = %v, want ErrBadURL", u, err)
		}
	}
}

func TestURLCredentialsAreRefusedUnquoted(t *testing.T) {
	cl := NewClient(&net.Dialer{})
	for _, u := range []string{"http://u:s3cret@127.0.0.1:1/x", "https://s3cret@127.0.0.1:1", "http://u:s3cret@127.0.0.1:1?a=b"} {
		err := cl.Do(&Request{Method: "GET", URL: []byte(u), Timeout: time.Second}, &Response{})
		if !errors.Is(err, ErrURLCredentials) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Do(%q) = %v, want ErrURLCredentials, without the secret", u, err)
		}
	}
	if err := cl.Do(&Request{Method: "GET", URL: []byte("http://x/?next=a@b"), Timeout: time.Second}, &Response{}); errors.Is(err, ErrURLCredentials) {
		t.Errorf("an @ in the query is no credential: %v", err)
	}
}

func TestDoDoesNotAllocate(t *testing.T) {
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	req := &Request{Method: "GET", URL: []byte(h1test.FixedServer(t) + "/x?y=1"), Header: []byte("X-A: b\r\n"), Timeout: time.Second}
	var resp Response
	if err := cl.Do(req, &resp); err != nil { // warm up: dial, buffers
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(200, func() {
		if err := cl.Do(req, &resp); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per request, want 0", n)
	}
}

func BenchmarkDo(b *testing.B) {
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	req := &Request{Method: "GET", URL: []byte(h1test.FixedServer(b) + "/x"), Timeout: time.Second}
	var resp Response
	b.ReportAllocs()
	defer testkit.CPUMeter(b)()
	for b.Loop() {
		if err := cl.Do(req, &resp); err != nil {
			b.Fatal(err)
		}
	}
}

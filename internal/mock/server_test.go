package mock

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

const serverConfig = `
listen: 127.0.0.1:0
tls: {listen: 127.0.0.1:0}
defaults:
  headers: {Server: loadlens-mock}
routes:
  - name: denied
    get: /users/{login}
    match: {headers: {Authorization: {exists: false}}}
    status: 401
    json: {message: no token}
  - name: user
    get: /users/{login}
    headers: {X-Login: "{{ login }}"}
    body: '{"login": "{{ login }}", "q": "{{ query }}"}'
  - name: echo
    post: /echo
    vars: {name: {json: $.name}, sid: {cookie: sid}}
    match: {body: {json: $.name, exists: true}}
    status: 201
    body: "{{ method }} {{ name }} {{ sid }}"
  - name: upload
    put: /{bucket}/{key...}
    headers: {ETag: '"{{ bucket }}-{{ key }}"'}
  - name: flaky
    get: /flaky
    body: fine
  - name: empty
    delete: /things/{id}
    status: 204
`

// startServer serves cfg on loopback until the test ends.
func startServer(t *testing.T, src string) *Server {
	t.Helper()
	cfg, err := Parse("m.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := New(cfg)
	if err := s.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(Settle + 5*time.Second):
			t.Errorf("Serve did not return")
		}
	})
	return s
}

// clients returns an HTTP/1.1 client, an h2c client and a TLS client (HTTP/2) for s.
func clients(t *testing.T, s *Server) map[string]struct {
	c     *http.Client
	base  string
	proto string
} {
	h1 := &http.Transport{}
	h2c := &http.Transport{Protocols: new(http.Protocols)}
	h2c.Protocols.SetUnencryptedHTTP2(true)
	secure := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, ForceAttemptHTTP2: true}
	for _, tr := range []*http.Transport{h1, h2c, secure} {
		t.Cleanup(tr.CloseIdleConnections) // before the server stops: it waits for open connections
	}
	return map[string]struct {
		c     *http.Client
		base  string
		proto string
	}{
		"http1": {&http.Client{Transport: h1, Timeout: 10 * time.Second}, "http://" + s.Addr(), "HTTP/1.1"},
		"h2c":   {&http.Client{Transport: h2c, Timeout: 10 * time.Second}, "http://" + s.Addr(), "HTTP/2.0"},
		"tls":   {&http.Client{Transport: secure, Timeout: 10 * time.Second}, "https://" + s.TLSAddr(), "HTTP/2.0"},
	}
}

func TestServeRoutes(t *testing.T) {
	s := startServer(t, serverConfig)
	sent := 0
	for name, cl := range clients(t, s) {
		t.Run(name, func(t *testing.T) {
			for _, c := range []struct {
				method, path, body string
				headers            map[string]string
				status             int
				wantBody           string
				wantHeader         [2]string
			}{
				{"GET", "/users/ann?x=1", "", nil, 401, `{"message":"no token"}`, [2]string{"Content-Type", "application/json"}},
				{"GET", "/users/ann?x=1", "", map[string]string{"Authorization": "Bearer t"}, 200, `{"login": "ann", "q": "x=1"}`, [2]string{"X-Login", "ann"}},
				{"POST", "/echo", `{"name": "bob"}`, map[string]string{"Cookie": "sid=s1"}, 201, "POST bob s1", [2]string{"Server", "loadlens-mock"}},
				{"POST", "/echo", `{"other": 1}`, nil, 404, "loadlens mock: no route matches POST /echo\n", [2]string{}},
				{"PUT", "/b1/dir/file.txt", strings.Repeat("x", 300_000), nil, 200, "", [2]string{"Etag", `"b1-dir/file.txt"`}},
				{"DELETE", "/things/9", "", nil, 204, "", [2]string{}},
				{"HEAD", "/flaky", "", nil, 200, "", [2]string{"Content-Length", "4"}},
				{"GET", "/nothing", "", nil, 404, "loadlens mock: no route matches GET /nothing\n", [2]string{}},
			} {
				req, _ := http.NewRequest(c.method, cl.base+c.path, strings.NewReader(c.body))
				for k, v := range c.headers {
					req.Header.Set(k, v)
				}
				resp, err := cl.c.Do(req)
				if err != nil {
					t.Fatalf("%s %s: %v", c.method, c.path, err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				sent++
				if resp.Proto != cl.proto {
					t.Errorf("%s %s: protocol %s, want %s", c.method, c.path, resp.Proto, cl.proto)
				}
				if resp.StatusCode != c.status || string(body) != c.wantBody {
					t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, resp.StatusCode, body, c.status, c.wantBody)
				}
				if k := c.wantHeader[0]; k != "" && resp.Header.Get(k) != c.wantHeader[1] {
					t.Errorf("%s %s: header %s = %q, want %q", c.method, c.path, k, resp.Header.Get(k), c.wantHeader[1])
				}
			}
		})
	}
	// The mock's own count of what it answered must equal what was sent.
	metrics := get(t, "http://"+s.Addr()+"/__mock/metrics")
	var counted, unmatched float64
	for _, line := range strings.Split(metrics, "\n") {
		var v float64
		switch {
		case strings.HasPrefix(line, "mock_requests_total{"):
			fmt.Sscan(line[strings.LastIndexByte(line, ' ')+1:], &v)
			counted += v
		case strings.HasPrefix(line, "mock_unmatched_requests_total "):
			fmt.Sscan(line[strings.LastIndexByte(line, ' ')+1:], &unmatched)
		}
	}
	if int(counted+unmatched) != sent || unmatched != 6 {
		t.Errorf("metrics count %v answered + %v unmatched, %d sent (6 unmatched)\n%s", counted, unmatched, sent, metrics)
	}
	if !strings.Contains(metrics, `mock_request_duration_seconds_bucket{route="user",le="+Inf"} 3`) {
		t.Errorf("no duration histogram for route user with 3 requests:\n%s", metrics)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}

func put(t *testing.T, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestAdminChangesBehaviour(t *testing.T) {
	s := startServer(t, serverConfig)
	base := "http://" + s.Addr()
	status := func() int {
		resp, err := http.Get(base + "/flaky")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status(); got != 200 {
		t.Fatalf("before: %d", got)
	}
	code, body := put(t, base+"/__mock/routes/flaky", `{"errors": {"rate": "100%", "status": 503}, "latency": "1ms"}`)
	if code != 200 || !strings.Contains(body, `"latency": "1ms"`) || !strings.Contains(body, `"rate": "100%"`) {
		t.Fatalf("change: %d %s", code, body)
	}
	for range 5 {
		if got := status(); got != 503 {
			t.Fatalf("after the change: %d, want 503", got)
		}
	}
	code, body = put(t, base+"/__mock/routes/flaky", "latency: {lognormal: {p50: 1ms}}\n")
	if code != 400 || !strings.Contains(body, "request body:1:22: latency.lognormal: give p50 and one of") {
		t.Errorf("bad change: %d %s", code, body)
	}
	if got := status(); got != 503 {
		t.Errorf("a rejected change changed something: %d", got)
	}
	code, body = put(t, base+"/__mock/routes/nope", `{"latency": "1ms"}`)
	if code != 404 || !strings.Contains(body, `no route named "nope"`) {
		t.Errorf("unknown route: %d %s", code, body)
	}
	resp, err := http.Post(base+"/__mock/reset", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := status(); got != 200 {
		t.Errorf("after reset: %d", got)
	}
	metrics := get(t, base+"/__mock/metrics")
	if !strings.Contains(metrics, `mock_injected_errors_total{route="flaky",kind="status"} 6`) {
		t.Errorf("injected errors not counted:\n%s", metrics)
	}
}

func TestResetConnection(t *testing.T) {
	s := startServer(t, "listen: 127.0.0.1:0\ntls: {listen: 127.0.0.1:0}\nroutes:\n  - get: /r\n    errors: {rate: 100%, reset: true}\n")
	for name, cl := range clients(t, s) {
		t.Run(name, func(t *testing.T) {
			_, err := cl.c.Get(cl.base + "/r")
			if err == nil {
				t.Fatal("a reset route answered")
			}
			if name == "http1" && !errors.Is(err, syscall.ECONNRESET) {
				t.Errorf("HTTP/1.1: %v, want connection reset by peer", err)
			}
			if name != "http1" && !strings.Contains(err.Error(), "INTERNAL_ERROR") && !strings.Contains(err.Error(), "stream error") {
				t.Errorf("HTTP/2: %v, want the stream reset", err)
			}
		})
	}
	if got := s.cfg.Routes[0].stats.resets.Load(); got != 3 {
		t.Errorf("resets counted %d, want 3", got)
	}
}

// TestBandwidthLimit checks that a throttled answer arrives whole and no
// faster than its bandwidth allows: 60 kB at 200 kB/s takes at least 0.3 s
// (a lower bound the mock guarantees, whatever the machine's speed).
func TestBandwidthLimit(t *testing.T) {
	body := strings.Repeat("b", 60_000)
	s := startServer(t, fmt.Sprintf("listen: 127.0.0.1:0\ntls: {listen: 127.0.0.1:0}\nroutes:\n  - get: /slow\n    body: %s\n    bandwidth: 200kB/s\n", body))
	for name, cl := range clients(t, s) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			resp, err := cl.c.Get(cl.base + "/slow")
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(got) != body {
				t.Fatalf("body of %d bytes, want %d", len(got), len(body))
			}
			if d := time.Since(start); d < 290*time.Millisecond {
				t.Errorf("60 kB at 200 kB/s took %s, less than 0.3 s", d)
			}
		})
	}
}

// TestPipelinedHTTP1 sends two requests in one write, as a pipelining client
// does: both are answered, in order.
func TestPipelinedHTTP1(t *testing.T) {
	s := startServer(t, serverConfig)
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	io.WriteString(c, "GET /flaky HTTP/1.1\r\nHost: x\r\n\r\nGET /users/z HTTP/1.1\r\nHost: x\r\nAuthorization: t\r\n\r\n")
	br := bufio.NewReader(c)
	for _, want := range []string{"fine", `{"login": "z", "q": ""}`} {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if string(b) != want {
			t.Errorf("got %q, want %q", b, want)
		}
	}
}

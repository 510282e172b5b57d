package h1

import (
	"bufio"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// closingServer answers each request with a 200 that does not say
// "Connection: close", then does after to the connection; it counts the
// connections it accepted and the requests it read.
func closingServer(t *testing.T, after func(c *net.TCPConn) (keep bool)) (url string, conns, reqs *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	conns, reqs = new(atomic.Int64), new(atomic.Int64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					if _, err := http.ReadRequest(br); err != nil {
						return
					}
					reqs.Add(1)
					c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
					if !after(c.(*net.TCPConn)) {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String(), conns, reqs
}

// doRightAfter sends request i of a series to url as a closed-model VU
// does: the first now, each later one as if sent the moment the response
// before it (in resp) was done, whatever the scheduler did; each may wait
// up to wait.
func doRightAfter(cl *Client, url string, i int, wait time.Duration, resp *Response) error {
	start := time.Now()
	deadline := start.Add(wait)
	if i > 0 {
		start = resp.Done
	}
	return cl.Do(&Request{Method: "GET", URL: []byte(url), KeepBody: true, Start: start, Deadline: deadline}, resp)
}

// TestFreshReuseSkipsTheIdleCheck: requests sent right after the last
// response (as a closed-model VU sends them, with Start) reuse the
// connection without the idle check; without Start, or after a pause, or
// for a POST, every reuse is checked.
func TestFreshReuseSkipsTheIdleCheck(t *testing.T) {
	url, conns, reqs := closingServer(t, func(*net.TCPConn) bool { return true })
	cases := []struct {
		name       string
		method     string
		start      bool
		pause      time.Duration
		wantChecks int
	}{
		{"GET with Start, back to back", "GET", true, 0, 0},
		{"GET without Start", "GET", false, 0, 9},
		{"POST with Start", "POST", true, 0, 9},
		{"GET with Start, after a pause", "GET", true, freshIdle, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := NewClient(&net.Dialer{})
			defer cl.Close()
			before := conns.Load()
			var resp Response
			for i := range 10 {
				req := &Request{Method: c.method, URL: []byte(url), KeepBody: true, Timeout: 5 * time.Second}
				if c.start { // the Clock read this long after the last response, whatever the scheduler did
					req.Start = time.Now()
					if i > 0 {
						req.Start = resp.Done.Add(c.pause)
					}
				}
				if err := cl.Do(req, &resp); err != nil || string(resp.Body) != "ok" {
					t.Fatalf("request %d: %v %q", i, err, resp.Body)
				}
			}
			if cl.idleChecks != c.wantChecks {
				t.Errorf("%d idle checks, want %d", cl.idleChecks, c.wantChecks)
			}
			if n := conns.Load() - before; n != 1 {
				t.Errorf("%d connections, want 1", n)
			}
		})
	}
	if reqs.Load() != 40 {
		t.Errorf("the server read %d requests, want 40", reqs.Load())
	}
}

// TestCloseInTheFreshWindow: a server that closes or resets each
// connection right after its response, without "Connection: close",
// catches requests that skipped the idle check. Each request goes out once
// the server's close is in, as it would after a server's keep-alive
// timeout: none of them fails and none reaches the server twice. The one
// that met the closed connection goes out again on a new one (the
// server's kernel reset it, after its close, or its write failed), and the
// client checks every reuse after. (A request that reaches the server
// before its close is read or reset with it: see TestKeepAliveReuseAndRetry.)
func TestCloseInTheFreshWindow(t *testing.T) {
	cases := []struct {
		name  string
		close func(c *net.TCPConn)
	}{
		{"close", func(c *net.TCPConn) { c.Close() }},
		{"reset", func(c *net.TCPConn) { c.SetLinger(0); c.Close() }},
	}
	const n = 20
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			closed := make(chan struct{}, n)
			url, conns, reqs := closingServer(t, func(tc *net.TCPConn) bool { c.close(tc); closed <- struct{}{}; return false })
			cl := NewClient(&net.Dialer{})
			defer cl.Close()
			var resp Response
			for i := range n {
				if err := doRightAfter(cl, url, i, 5*time.Second, &resp); err != nil || resp.Status != 200 || string(resp.Body) != "ok" {
					t.Fatalf("request %d: %v, %d %q", i, err, resp.Status, resp.Body)
				}
				if resp.Connect <= 0 {
					t.Errorf("request %d: no connect time; every request needs a new connection", i)
				}
				awaitClose(t, closed)
			}
			// the first reuse skipped the check and met the closed connection; every later one was checked
			if cl.idleChecks != n-2 || !cl.checkAlways || cl.resent != 1 {
				t.Errorf("%d idle checks, %d sent again; want %d (every reuse but the first) and 1", cl.idleChecks, cl.resent, n-2)
			}
			if conns.Load() != n || reqs.Load() != n {
				t.Errorf("the server saw %d connections and %d requests, want %d and %d", conns.Load(), reqs.Load(), n, n)
			}
		})
	}
}

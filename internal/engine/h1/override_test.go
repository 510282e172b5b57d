package h1

import (
	"bufio"
	"bytes"
	"net"
	"strings"
	"testing"
	"time"
)

// headServer answers one request with ok and sends its raw head (request
// line and header lines, as received) on the returned channel.
func headServer(t *testing.T) (string, chan []string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	heads := make(chan []string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		var lines []string
		for range 100 {
			l, err := br.ReadString('\n')
			if err != nil || l == "\r\n" {
				break
			}
			lines = append(lines, strings.TrimSuffix(l, "\r\n"))
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		heads <- lines
	}()
	return "http://" + ln.Addr().String(), heads
}

// TestHostAndUserAgent: the server sees exactly one Host and one
// User-Agent field, with the override's value when one is given.
func TestHostAndUserAgent(t *testing.T) {
	cases := []struct {
		name      string
		host, ua  []byte
		header    string
		wantHost  string // "": the URL's host
		wantAgent string
	}{
		{"defaults", nil, nil, "", "", "loadlens"},
		{"Host override", []byte("api.example.com"), nil, "", "api.example.com", "loadlens"},
		{"User-Agent override", nil, []byte("Mozilla/5.0 (X11; Linux x86_64)"), "", "", "Mozilla/5.0 (X11; Linux x86_64)"},
		{"both, beside other headers", []byte("example.org:8443"), []byte("k6/0.50"), "Accept: */*\r\nX-Id: 7\r\n", "example.org:8443", "k6/0.50"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url, heads := headServer(t)
			cl := NewClient(&net.Dialer{})
			defer cl.Close()
			req := &Request{Method: "GET", URL: []byte(url + "/p"), Host: c.host, UserAgent: c.ua, Header: []byte(c.header), Timeout: 2 * time.Second}
			if err := cl.Do(req, &Response{}); err != nil {
				t.Fatal(err)
			}
			want := c.wantHost
			if want == "" {
				want = strings.TrimPrefix(url, "http://")
			}
			lines := <-heads
			if got := fieldValues(lines, "Host"); len(got) != 1 || got[0] != want {
				t.Errorf("Host fields %q, want exactly [%q]", got, want)
			}
			if got := fieldValues(lines, "User-Agent"); len(got) != 1 || got[0] != c.wantAgent {
				t.Errorf("User-Agent fields %q, want exactly [%q]", got, c.wantAgent)
			}
			if lines[0] != "GET /p HTTP/1.1" {
				t.Errorf("request line %q", lines[0])
			}
		})
	}
}

func fieldValues(lines []string, name string) []string {
	var out []string
	for _, l := range lines[1:] {
		if n, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(n, name) {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// TestOverrideCannotSplitTheRequest: a Host or User-Agent with a line
// break is refused before anything is sent.
func TestOverrideCannotSplitTheRequest(t *testing.T) {
	url, conns := rawServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	for _, req := range []*Request{
		{Method: "GET", URL: []byte(url), Host: []byte("a\r\nX-Injected: 1")},
		{Method: "GET", URL: []byte(url), UserAgent: []byte("a\nb")},
		{Method: "GET", URL: []byte(url), UserAgent: []byte("a\x00b")},
	} {
		if err := cl.Do(req, &Response{}); err == nil || !bytes.Contains([]byte(err.Error()), []byte("control character")) {
			t.Errorf("Do(Host %q, User-Agent %q) = %v, want a refusal", req.Host, req.UserAgent, err)
		}
	}
	if conns.Load() != 0 {
		t.Errorf("%d connections opened for refused requests", conns.Load())
	}
}

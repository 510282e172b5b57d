package h1

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// readCounted adds the bytes read from its connection to n: every
// connection of a server to one count.
type readCounted struct {
	net.Conn
	n *atomic.Int64
}

func (c readCounted) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// bodyServer answers every request with a 200, keeping the connection,
// and counts the bytes it read off the socket (TLS records over https) and
// the requests whose body was want, byte for byte.
func bodyServer(t *testing.T, sc scheme, want []byte) (url string, read, matched *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	read, matched = new(atomic.Int64), new(atomic.Int64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var nc net.Conn = readCounted{c, read}
			if sc.secure() {
				nc = tls.Server(nc, sc.server)
			}
			go func() {
				defer nc.Close()
				br := bufio.NewReader(nc)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					got, err := io.ReadAll(req.Body)
					if err == nil && bytes.Equal(got, want) {
						matched.Add(1)
					}
					nc.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
				}
			}()
		}
	}()
	scheme := "http://"
	if sc.secure() {
		scheme = "https://"
	}
	return scheme + ln.Addr().String() + "/upload", read, matched
}

// TestLargeBodyIsStreamed: a body larger than InlineBodyMax is written
// from the request, not copied into the client's write buffer, which would
// keep its size for the client's life; the server gets every byte, as
// many as Response.Sent counts, on a connection kept for the next request.
func TestLargeBodyIsStreamed(t *testing.T) {
	sizes := []struct {
		name string
		size int
	}{
		{"none", 0}, {"1 KiB", 1 << 10}, {"InlineBodyMax", InlineBodyMax},
		{"InlineBodyMax+1", InlineBodyMax + 1}, {"1 MiB", 1 << 20},
	}
	for _, sc := range schemes(t) {
		for _, tt := range sizes {
			t.Run(sc.name+"/"+tt.name, func(t *testing.T) {
				body := bytes.Repeat([]byte("0123456789abcdef"), tt.size/16+1)[:tt.size]
				url, read, matched := bodyServer(t, sc, body)
				c := sc.newClient()
				defer c.Close()
				var sent int64
				const requests = 3
				for i := range requests {
					var resp Response
					err := c.Do(&Request{Method: "POST", URL: []byte(url), Body: body, Timeout: 10 * time.Second}, &resp)
					if err != nil || resp.Status != 200 {
						t.Fatalf("request %d: status %d, %v", i, resp.Status, err)
					}
					sent += resp.Sent
				}
				if n := matched.Load(); n != requests {
					t.Errorf("the server read the body whole in %d requests of %d", n, requests)
				}
				if got := read.Load(); got != sent {
					t.Errorf("the server read %d bytes, Response.Sent counted %d", got, sent)
				}
				if limit := InlineBodyMax + 1<<10; cap(c.wbuf) > limit {
					t.Errorf("the write buffer holds %d bytes for a %d-byte body, want at most %d", cap(c.wbuf), tt.size, limit)
				}
				if len(c.conns) != 1 {
					t.Errorf("%d connections kept, want the one reused", len(c.conns))
				}
			})
		}
	}
}

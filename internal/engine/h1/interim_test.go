package h1

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestInterimResponses(t *testing.T) { runExchanges(t, interimCases()) }

func interimCases() []exchangeCase {
	const (
		ok       = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
		cont     = "HTTP/1.1 100 Continue\r\n\r\n"
		early    = "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
		process  = "HTTP/1.1 102 Processing\r\n\r\n"
		switched = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
	)
	okAnswer := answer{status: 200, body: "ok"}
	cases := []exchangeCase{
		{
			// the bug: each 1xx was taken as the answer, and every later
			// response was read as the previous request's
			name:    "100 Continue before every answer",
			replies: []string{cont + ok, cont + ok, cont + ok},
			want:    []answer{okAnswer, okAnswer, okAnswer},
			conns:   1,
		},
		{
			name:    "103 Early Hints: its fields are not the answer's",
			replies: []string{early + ok, ok},
			want:    []answer{{status: 200, body: "ok", noHeader: "Link"}, okAnswer},
			conns:   1,
		},
		{
			name: "Set-Cookie and Location of a 103 are not the answer's; the answer's own are, in any case",
			replies: []string{"HTTP/1.1 103 Early Hints\r\nSet-Cookie: a=1\r\nLocation: /x\r\n\r\n" + ok,
				"HTTP/1.1 302 Found\r\nset-COOKIE: b=2\r\nlocation:\r\n /y\r\nContent-Length: 0\r\n\r\n", ok},
			want:  []answer{{status: 200, body: "ok", noHeader: "Set-Cookie"}, {status: 302}, okAnswer},
			conns: 1,
		},
		{
			name:    "100, 102 and 103 in a row, split over writes",
			replies: []string{"HTTP/1.1 100 Continue\r|\n\r\n" + process + "|" + early + "HTTP/1.1 2|00 OK\r\nContent-Length: 2\r\n\r\no|k", ok},
			want:    []answer{okAnswer, okAnswer},
			conns:   1,
		},
		{
			name:    "a 1xx has no body whatever its Content-Length says",
			replies: []string{"HTTP/1.1 103 Early Hints\r\nContent-Length: 5\r\n\r\n" + ok, ok},
			want:    []answer{okAnswer, okAnswer},
			conns:   1,
		},
		{
			name:    "interim responses with bare LF line ends",
			replies: []string{"HTTP/1.1 100 Continue\n\n" + ok},
			want:    []answer{okAnswer},
			conns:   1,
		},
		{
			name:    "ten interim responses are read",
			replies: []string{strings.Repeat(process, maxInterim) + ok, ok},
			want:    []answer{okAnswer, okAnswer},
			conns:   1,
		},
		{
			name:    "eleven are a protocol violation, and the connection is not reused",
			replies: []string{strings.Repeat(process, maxInterim+1) + ok, ok},
			want:    []answer{{err: ErrMalformed, errHas: "interim"}, okAnswer},
			conns:   2,
		},
		{
			// The client never asks to switch protocols, so a 101 is the
			// final answer, and the connection no longer speaks HTTP/1.1.
			name:    "101 is final and closes the connection",
			replies: []string{switched + "garbage in another protocol", ok},
			want:    []answer{{status: 101, body: "", received: len(switched)}, okAnswer},
			conns:   2,
		},
		{
			name:    "a malformed interim response fails the request",
			replies: []string{"HTTP/1.1 100 Continue\r\nTransfer-Encoding: gzip\r\n\r\n" + ok, ok},
			want:    []answer{{err: ErrMalformed, errHas: "Transfer-Encoding"}, okAnswer},
			conns:   2,
		},
	}
	return cases
}

// TestEndlessInterimStream: a server that streams 1xx responses forever
// gets a protocol error after maxInterim of them, not a held VU.
func TestEndlessInterimStream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var written atomic.Int64
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
			return
		}
		for range 1_000_000 { // bounded; the client's close ends it long before
			n, err := c.Write([]byte("HTTP/1.1 102 Processing\r\n\r\n"))
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}()
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	var resp Response
	err = cl.Do(&Request{Method: "GET", URL: []byte("http://" + ln.Addr().String()), Timeout: 30 * time.Second}, &resp)
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v, want ErrMalformed (too many interim responses)", err)
	}
	if min := int64((maxInterim + 1) * len("HTTP/1.1 102 Processing\r\n\r\n")); resp.Received < min {
		t.Errorf("received %d bytes, want at least the %d of the interim heads", resp.Received, min)
	}
}

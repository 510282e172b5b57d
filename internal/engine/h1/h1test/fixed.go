// Package h1test serves canned HTTP/1.1 responses for tests and benchmarks.
package h1test

import (
	"bytes"
	"net"
	"testing"
)

// FixedServer answers every request on 127.0.0.1 with the same small 200
// response, allocating nothing per request, so that benchmarks and
// allocation tests in the same process see the client's costs only. It
// returns the base URL; the server stops when the test ends.
func FixedServer(tb testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	reply := []byte(FixedReply)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c, reply)
		}
	}()
	return "http://" + ln.Addr().String()
}

// FixedReply is every fixed server's answer.
const FixedReply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"

// serve answers each request head on c (requests have no body) with reply.
func serve(c net.Conn, reply []byte) {
	defer c.Close()
	buf := make([]byte, 4096)
	n := 0
	for {
		m, err := c.Read(buf[n:])
		if err != nil {
			return
		}
		n += m
		for {
			i := bytes.Index(buf[:n], []byte("\r\n\r\n"))
			if i < 0 {
				break
			}
			n = copy(buf, buf[i+4:n])
			if _, err := c.Write(reply); err != nil {
				return
			}
		}
		if n == len(buf) {
			return // a request head this long is not one of ours
		}
	}
}

package h1

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// loopConn answers every write with the same reply, without a socket, so
// a benchmark measures the client's own work: writing and parsing.
type loopConn struct {
	fakeConn
	reply []byte
}

func (l *loopConn) Write(p []byte) (int, error) {
	l.data = l.reply
	return len(p), nil
}

// BenchmarkParse is one request's user-space cost: building it and reading
// a typical small response, with no system call.
func BenchmarkParse(b *testing.B) {
	lc := &loopConn{reply: []byte("HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Mon, 23 Nov 2026 22:00:00 GMT\r\n" +
		"Content-Type: application/json\r\nContent-Length: 17\r\nConnection: keep-alive\r\n\r\n{\"status\":\"good\"}")}
	cl := NewClient(&net.Dialer{})
	cl.dial = func(context.Context, string, string) (net.Conn, error) { return lc, nil }
	req := &Request{Method: "GET", URL: []byte("http://bench.test/x?y=1"), Header: []byte("X-A: b\r\n"), KeepBody: true, Timeout: time.Second}
	var resp Response
	b.ReportAllocs()
	defer testkit.CPUMeter(b)()
	for b.Loop() {
		if err := cl.Do(req, &resp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPostBody is BenchmarkParse for a POST with a body: one small
// enough to be copied behind the head, and one written from the request.
func BenchmarkPostBody(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			lc := &loopConn{reply: []byte("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")}
			cl := NewClient(&net.Dialer{})
			cl.dial = func(context.Context, string, string) (net.Conn, error) { return lc, nil }
			req := &Request{Method: "POST", URL: []byte("http://bench.test/upload"), Header: []byte("Content-Type: application/octet-stream\r\n"),
				Body: make([]byte, size), Timeout: time.Second}
			var resp Response
			b.ReportAllocs()
			b.SetBytes(int64(size))
			defer testkit.CPUMeter(b)()
			for b.Loop() {
				if err := cl.Do(req, &resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package h1

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
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
	defer cpuMeter(b)()
	for b.Loop() {
		if err := cl.Do(req, &resp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIdleCheck is the cost of looking for bytes that arrived on an
// idle kept-alive connection (a non-blocking MSG_PEEK), paid once per reuse.
func BenchmarkIdleCheck(b *testing.B) {
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	req := &Request{Method: "GET", URL: []byte(h1test.FixedServer(b) + "/x")} // no deadline: a passed one fails the peek
	if err := cl.Do(req, &Response{}); err != nil {
		b.Fatal(err)
	}
	cn := cl.conns[0]
	b.ReportAllocs()
	defer cpuMeter(b)()
	for b.Loop() {
		if !cn.idle.quiet() {
			b.Fatalf("an idle connection with nothing sent looked busy: n=%d err=%v", cn.idle.n, cn.idle.err)
		}
	}
}

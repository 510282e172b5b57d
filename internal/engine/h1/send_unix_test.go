//go:build unix

package h1

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestRequestLargerThanTheSocketBuffer: a request the socket cannot take
// in one write (a 1 MiB body, a 4 KiB send buffer) is written whole, then its response read,
// on a new connection and on a reused one; the server sees every byte.
func TestRequestLargerThanTheSocketBuffer(t *testing.T) {
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		got.Store(n)
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	// A small send buffer, so the socket takes the request in pieces
	// however fast the server reads.
	cl := NewClient(&net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096) })
	}})
	defer cl.Close()
	body := make([]byte, 1<<20)
	for i := range 2 {
		var resp Response
		err := cl.Do(&Request{Method: "POST", URL: []byte(srv.URL), Body: body, KeepBody: true, Timeout: 10 * time.Second}, &resp)
		if err != nil || resp.Status != 200 || string(resp.Body) != "ok" {
			t.Fatalf("request %d: %v, %d %q", i, err, resp.Status, resp.Body)
		}
		if got.Load() != int64(len(body)) || resp.Sent <= int64(len(body)) {
			t.Fatalf("request %d: the server read %d body bytes and the client sent %d, want %d and more", i, got.Load(), resp.Sent, len(body))
		}
		if resp.Wrote.IsZero() || resp.FirstByte.Before(resp.Wrote) {
			t.Fatalf("request %d: written at %v, first byte at %v", i, resp.Wrote, resp.FirstByte)
		}
	}
	if len(cl.conns) != 1 || cl.conns[0].used != 2 {
		t.Fatalf("want one connection used twice")
	}
}

package h1

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
)

// TestIdleConnectionHoldsNoReadBuffer: between exchanges a kept-alive
// connection gives its read buffer back (a thinking VU holds none), over
// http and https, and the next exchange on it still reads its response.
func TestIdleConnectionHoldsNoReadBuffer(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	for _, c := range []struct {
		name string
		url  string
	}{{"http", h1test.FixedServer(t)}, {"https", h1test.FixedTLSServer(t, srvCfg)}} {
		t.Run(c.name, func(t *testing.T) {
			cl := New(Config{Dialer: &net.Dialer{}, TLS: cliCfg, HandshakeTimeout: 10 * time.Second})
			defer cl.Close()
			for i := range 3 {
				var resp Response
				if err := cl.Do(&Request{Method: "GET", URL: []byte(c.url + "/"), Timeout: 10 * time.Second, KeepBody: true}, &resp); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if want := h1test.FixedReply[strings.Index(h1test.FixedReply, "\r\n\r\n")+4:]; resp.Status != 200 || string(resp.Body) != want {
					t.Fatalf("request %d: status %d, body %q", i, resp.Status, resp.Body)
				}
				if len(cl.conns) != 1 || cl.conns[0].used != i+1 {
					t.Fatalf("request %d: %d connections; want the first kept", i, len(cl.conns))
				}
				if cl.conns[0].buf != nil {
					t.Fatalf("request %d: the idle connection holds a read buffer of %d bytes", i, len(cl.conns[0].buf))
				}
			}
		})
	}
}

// TestWaitingRequestHoldsNoReadBuffer: over http a request waiting for its
// response holds no read buffer either (it is taken once the response is
// readable), so the pool holds as many as responses being read, not as
// requests in flight; the response still arrives whole.
func TestWaitingRequestHoldsNoReadBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("the test reads the connection's buffer while Do waits on a socket, which the race detector cannot see order")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	arrived, reply := make(chan struct{}), make(chan struct{})
	go holdingServer(ln, arrived, reply)
	url := []byte("http://" + ln.Addr().String() + "/")
	cl := New(Config{Dialer: &net.Dialer{}})
	defer cl.Close()
	req := &Request{Method: "GET", URL: url, Timeout: 10 * time.Second, KeepBody: true}
	for i := range 2 { // the first on a new connection, the second on the kept one
		done := make(chan error, 1)
		var resp Response
		go func() { done <- cl.Do(req, &resp) }()
		<-arrived
		if cn := cl.conns[len(cl.conns)-1]; cn.buf != nil {
			t.Errorf("request %d: waiting for its response, the connection holds a read buffer", i)
		}
		reply <- struct{}{}
		if err := <-done; err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if want := h1test.FixedReply[strings.Index(h1test.FixedReply, "\r\n\r\n")+4:]; resp.Status != 200 || string(resp.Body) != want {
			t.Fatalf("request %d: status %d, body %q", i, resp.Status, resp.Body)
		}
	}
}

// holdingServer reads each request head on one connection, says so on
// arrived and replies with h1test.FixedReply when told on reply.
func holdingServer(ln net.Listener, arrived, reply chan struct{}) {
	c, err := ln.Accept()
	if err != nil {
		return
	}
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			if line == "\r\n" {
				break
			}
		}
		arrived <- struct{}{}
		<-reply
		if _, err := c.Write([]byte(h1test.FixedReply)); err != nil {
			return
		}
	}
}

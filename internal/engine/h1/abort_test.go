package h1

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// startDo runs one Do in a goroutine and returns its result channel.
func startDo(cl *Client, url string, timeout time.Duration) chan error {
	done := make(chan error, 1)
	go func() {
		var resp Response
		done <- cl.Do(&Request{Method: "GET", URL: []byte(url), Timeout: timeout}, &resp)
	}()
	return done
}

// abortAndWait aborts cl and waits, boundedly, for the Do in flight.
func abortAndWait(t *testing.T, cl *Client, done chan error) {
	t.Helper()
	start := time.Now()
	cl.Abort()
	select {
	case err := <-done:
		if !errors.Is(err, ErrAborted) {
			t.Fatalf("err = %v, want ErrAborted", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Abort did not unblock Do within 5s (its timeout is a minute)")
	}
	t.Logf("Do returned %v after Abort", time.Since(start))
}

// stallServer runs serve on each connection after reading one request,
// and keeps the connection open until the test ends.
func stallServer(t *testing.T, sc scheme, serve func(c net.Conn)) string {
	t.Helper()
	ln, url := sc.listen(t)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if _, err := http.ReadRequest(bufio.NewReader(c)); err != nil {
					return
				}
				go serve(c)
				<-stop
			}()
		}
	}()
	return url
}

// tcpOf returns the TCP connection under c, a TLS connection or not.
func tcpOf(c net.Conn) *net.TCPConn {
	if tc, ok := c.(*tls.Conn); ok {
		return tc.NetConn().(*net.TCPConn)
	}
	return c.(*net.TCPConn)
}

// TestAbortUnblocks: Abort ends a request waiting for a response and one
// receiving a slowloris response, promptly, whatever its timeout.
func TestAbortUnblocks(t *testing.T) {
	cases := []struct {
		name  string
		serve func(c net.Conn, ready chan<- struct{}) // tells ready when the client is blocked
	}{
		{"waiting for a response", func(c net.Conn, ready chan<- struct{}) { ready <- struct{}{} }},
		{"slowloris head", func(c net.Conn, ready chan<- struct{}) {
			dribble(c, "HTTP/1.1 200 OK\r\nX-Slow: "+string(make([]byte, 1000)), ready)
		}},
		{"slowloris body", func(c net.Conn, ready chan<- struct{}) {
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"))
			dribble(c, string(make([]byte, 1000)), ready)
		}},
	}
	for _, sc := range schemes(t) {
		for _, c := range cases {
			t.Run(sc.name+"/"+c.name, func(t *testing.T) {
				ready := make(chan struct{}, 1)
				url := stallServer(t, sc, func(conn net.Conn) { c.serve(conn, ready) })
				cl := sc.newClient()
				defer cl.Close()
				done := startDo(cl, url, time.Minute)
				select {
				case <-ready:
				case err := <-done:
					t.Fatalf("Do returned %v before the server stalled", err)
				case <-time.After(5 * time.Second):
					t.Fatal("the server never got the request")
				}
				abortAndWait(t, cl, done)
				if err := cl.Do(&Request{Method: "GET", URL: []byte(url)}, &Response{}); !errors.Is(err, ErrAborted) {
					t.Errorf("Do after Abort = %v, want ErrAborted", err)
				}
			})
		}
	}
}

// dribble writes s a byte every 10 ms (the fault being simulated, not a
// synchronisation), telling ready after the first few bytes.
func dribble(c net.Conn, s string, ready chan<- struct{}) {
	for i := range len(s) {
		if _, err := c.Write([]byte{s[i]}); err != nil {
			return
		}
		if i == 3 {
			ready <- struct{}{}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestErrorsKeepTheirKinds: the engine classifies errors by their types,
// so a timeout, a reset, a close and a protocol violation must each stay
// recognisable.
func TestErrorsKeepTheirKinds(t *testing.T) {
	isTimeout := func(err error) bool {
		var ne net.Error
		return errors.As(err, &ne) && ne.Timeout()
	}
	cases := []struct {
		name  string
		serve func(c net.Conn)
		check func(error) bool
		want  string
	}{
		{"no answer: a timeout", func(c net.Conn) {}, isTimeout, "net.Error with Timeout()"},
		{"reset", func(c net.Conn) {
			tcpOf(c).SetLinger(0) // Close sends RST
			tcpOf(c).Close()
		}, func(err error) bool { return errors.Is(err, syscall.ECONNRESET) }, "ECONNRESET"},
		{"closed before any answer", func(c net.Conn) { c.Close() },
			func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }, "io.ErrUnexpectedEOF"},
		{"closed mid-body", func(c net.Conn) {
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"))
			c.Close()
		}, func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }, "io.ErrUnexpectedEOF"},
		{"protocol violation", func(c net.Conn) { c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n")) },
			func(err error) bool { return errors.Is(err, ErrMalformed) && !isTimeout(err) }, "ErrMalformed"},
	}
	for _, sc := range schemes(t) {
		for _, c := range cases {
			t.Run(sc.name+"/"+c.name, func(t *testing.T) {
				url := stallServer(t, sc, c.serve)
				cl := sc.newClient()
				defer cl.Close()
				timeout := 10 * time.Second // generous: only the timeout case should reach it
				if c.want == "net.Error with Timeout()" {
					timeout = 300 * time.Millisecond
				}
				err := cl.Do(&Request{Method: "GET", URL: []byte(url), Timeout: timeout}, &Response{})
				if !c.check(err) {
					t.Fatalf("err = %v (%T), want %s", err, err, c.want)
				}
			})
		}
	}
}

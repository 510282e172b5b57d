package h1

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestKeptDeadlineNeverEndsARequestEarly: a request that keeps the socket
// deadline of the one before (earlier than its own by less than a 16th of
// its timeout, so no timer is updated) still times out at its own
// deadline, not at the kept one.
func TestKeptDeadlineNeverEndsARequestEarly(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	stop := make(chan struct{})
	defer close(stop)
	go func() { // answers the first request, then reads the second and holds it
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		if _, err := http.ReadRequest(br); err != nil {
			return
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		http.ReadRequest(br)
		<-stop
	}()
	url := []byte("http://" + ln.Addr().String())
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	const timeout = 400 * time.Millisecond
	start := time.Now()
	if err := cl.Do(&Request{Method: "GET", URL: url, Start: start, Deadline: start.Add(timeout)}, &Response{}); err != nil {
		t.Fatal(err)
	}
	second := start.Add(timeout / 20) // its deadline is timeout/20 after the one kept: within a 16th
	err = cl.Do(&Request{Method: "GET", URL: url, Start: second, Deadline: second.Add(timeout)}, &Response{})
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if now := time.Now(); now.Before(second.Add(timeout)) {
		t.Fatalf("the request ended %v before its deadline", second.Add(timeout).Sub(now))
	}
	if cl.arms != 1 {
		t.Fatalf("%d deadlines set before the requests, want 1: the second keeps the first's", cl.arms)
	}
}

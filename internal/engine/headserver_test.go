package engine

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// headServer serves raw HTTP/1.1 on 127.0.0.1: on each connection it reads
// one request's head, calls answer, and closes the connection (answer may
// have done so). Connections are bounded by hold. It returns the URL.
func headServer(t *testing.T, hold time.Duration, answer func(c net.Conn, r *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(hold))
				r := bufio.NewReader(c)
				for {
					l, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if l == "\r\n" {
						break
					}
				}
				answer(c, r)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

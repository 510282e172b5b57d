//go:build linux

package h1

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"
)

// silentListener returns the address of a loopback listener whose accept
// queue is full, so the kernel drops further SYNs and a dial to it hangs
// in the handshake (as to a host that never answers), without sending
// anything off the machine.
func silentListener(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil { // a queue of one, never accepted
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := (&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: sa.(*syscall.SockaddrInet4).Port}).String()
	// Fill the queue: once a dial times out, SYNs are being dropped.
	for i := 0; ; i++ {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return addr
			}
			t.Fatalf("filling the accept queue: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		if i == 16 {
			t.Skip("the kernel kept accepting past a full queue; cannot make a silent host")
		}
	}
}

// TestAbortUnblocksDial: Abort ends a dial stuck in the TCP handshake at
// once, not at the request timeout (a minute here).
func TestAbortUnblocksDial(t *testing.T) {
	addr := silentListener(t)
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	done := startDo(cl, "http://"+addr+"/", time.Minute)
	for end := time.Now().Add(5 * time.Second); !cl.dialing(); { // poll, bounded, until the dial is in progress
		select {
		case err := <-done:
			t.Fatalf("Do returned %v before dialling", err)
		default:
		}
		if time.Now().After(end) {
			t.Fatal("the dial never started")
		}
		time.Sleep(time.Millisecond)
	}
	abortAndWait(t, cl, done)
}

// TestDialTimeoutIsATimeout: a dial that outlives the request's timeout
// fails with a net.Error whose Timeout() is true, so the engine counts it
// as a timeout.
func TestDialTimeoutIsATimeout(t *testing.T) {
	addr := silentListener(t)
	cl := NewClient(&net.Dialer{})
	defer cl.Close()
	err := cl.Do(&Request{Method: "GET", URL: []byte("http://" + addr + "/"), Timeout: 200 * time.Millisecond}, &Response{})
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err = %v (%T), want a net.Error with Timeout()", err, err)
	}
}

// dialing reports whether a dial is in progress.
func (c *Client) dialing() bool {
	return c.g.Dialing()
}

//go:build unix

package h1

import (
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRawIOKeepsNetErrors: reads and writes through raw system calls
// return what net.Conn's would, so the engine classifies them the same:
// data, io.EOF at the peer's close, a timeout at the deadline, a reset,
// net.ErrClosed after our close.
func TestRawIOKeepsNetErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		peer  func(p net.Conn) // what the peer does after accepting
		setup func(c net.Conn) // what we do before reading
		check func(n int, err error) string
	}{
		{"data", func(p net.Conn) { p.Write([]byte("hello")) }, nil, func(n int, err error) string {
			if n != 5 || err != nil {
				return "want 5 bytes and no error"
			}
			return ""
		}},
		{"peer closed", func(p net.Conn) { p.Close() }, nil, func(n int, err error) string {
			if n != 0 || err != io.EOF {
				return "want io.EOF"
			}
			return ""
		}},
		{"deadline", func(p net.Conn) {}, func(c net.Conn) { c.SetReadDeadline(time.Now().Add(20 * time.Millisecond)) }, func(n int, err error) string {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
				return "want a net.Error whose Timeout is true"
			}
			if strings.Contains(err.Error(), "raw-read") {
				return "want net.Conn's message, without RawConn's op"
			}
			return ""
		}},
		{"reset", func(p net.Conn) { p.(*net.TCPConn).SetLinger(0); p.Close() }, nil, func(n int, err error) string {
			var op *net.OpError
			if !errors.Is(err, syscall.ECONNRESET) || !errors.As(err, &op) || op.Op != "read" {
				return "want a read *net.OpError wrapping ECONNRESET"
			}
			return ""
		}},
		{"closed by us", func(p net.Conn) {}, func(c net.Conn) { c.Close() }, func(n int, err error) string {
			if !errors.Is(err, net.ErrClosed) {
				return "want net.ErrClosed"
			}
			return ""
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			nc, p := loopbackPair(t)
			var r rawIO
			r.init(nc, nc.(syscall.Conn))
			if !r.ok() {
				t.Fatal("no raw access to a TCP connection")
			}
			nc.SetDeadline(time.Now().Add(10 * time.Second)) // bounds a read that would wait forever
			c.peer(p)
			if c.setup != nil {
				c.setup(nc)
			}
			buf := make([]byte, 16)
			n, err := r.read(buf)
			if c.name == "data" {
				for n < 5 && err == nil { // bounded by the deadline above
					var m int
					m, err = r.read(buf[n:])
					n += m
				}
			}
			if msg := c.check(n, err); msg != "" {
				t.Fatalf("read returned %d, %v: %s", n, err, msg)
			}
		})
	}
}

// TestRawIOWritesAll: a write larger than the socket buffer waits for the
// peer to read and returns only when all of it is written.
func TestRawIOWritesAll(t *testing.T) {
	nc, p := loopbackPair(t)
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	p.SetDeadline(time.Now().Add(10 * time.Second))
	var r rawIO
	r.init(nc, nc.(syscall.Conn))
	msg := make([]byte, 8<<20) // past any loopback socket buffer: the write must wait
	got := make(chan int64, 1)
	go func() { n, _ := io.Copy(io.Discard, p); got <- n }()
	n, err := r.write(msg)
	if err != nil || n != len(msg) {
		t.Fatalf("write returned %d, %v; want %d, nil", n, err, len(msg))
	}
	nc.Close()
	if m := <-got; m != int64(len(msg)) {
		t.Fatalf("the peer read %d bytes, want %d", m, len(msg))
	}
	if _, err := r.write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("a write after close returned %v, want net.ErrClosed", err)
	}
}

// loopbackPair returns both ends of a TCP connection on 127.0.0.1, closed
// when the test ends.
func loopbackPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	server, err = ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return client, server
}

// awaitBytes waits until bytes arrive on c, without reading them.
func awaitBytes(c *net.TCPConn) {
	rc, err := c.SyscallConn()
	if err != nil {
		return
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	rc.Read(func(fd uintptr) bool {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return n > 0 || err != syscall.EAGAIN
	})
}

package engine

import (
	"io"
	"net"
	"runtime"
	"testing"
)

// TestPeerSilent: a connection waits for its peer once it has sent bytes
// and received none (a Client Hello never answered); one that has sent
// nothing yet (a handshake waiting for a CPU) or has had an answer does
// not, nor one closed. Through the wrappers the clients dial with.
func TestPeerSilent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		if s, err := ln.Accept(); err == nil {
			accepted <- s
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	defer s.Close()
	wrapped := &countedConn{Conn: c, n: &wireCount{}}
	linux := runtime.GOOS == "linux" // elsewhere a connection never reads as silent
	steps := []struct {
		name string
		do   func() error
		want bool
	}{
		{"dialled, nothing sent", func() error { return nil }, false},
		{"sent, nothing received", func() error { _, err := wrapped.Write([]byte("hello")); return err }, linux},
		{"answered", func() error {
			if _, err := s.Write([]byte("x")); err != nil {
				return err
			}
			_, err := io.ReadFull(c, make([]byte, 1)) // the answer arrived: the kernel counted it
			return err
		}, false},
		{"closed", c.Close, false},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := peerSilent(wrapped); got != st.want {
			t.Errorf("%s: peerSilent %v, want %v", st.name, got, st.want)
		}
	}
}

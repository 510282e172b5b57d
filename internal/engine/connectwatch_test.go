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

// gaugeAt is a connection whose read gauge says what a test sets, over a
// real socket whose kernel counts the watch reads.
type gaugeAt struct {
	net.Conn
	calls uint64
	bytes int64
}

func (g *gaugeAt) ReadState() (uint64, int64) { return g.calls, g.bytes }
func (g *gaugeAt) NetConn() net.Conn          { return g.Conn }

// TestReadStalled: a connection waits for a peer that stalled when its
// reader has been in the same read for a whole check's interval and has
// read all the kernel received (a Server Hello read, the rest never
// sent); not when no read waits (a handshake busy on the CPU), when each
// check finds another read (a slow server that sends), nor when bytes
// arrived unread (a reader waiting for a CPU).
func TestReadStalled(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the kernel's counts are Linux's TCP_INFO")
	}
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
	defer c.Close()
	s := <-accepted
	defer s.Close()
	g := &gaugeAt{Conn: c}
	w := &connectWatch{conn: g}
	steps := []struct {
		name   string
		calls  uint64
		bytes  int64
		send   string // what the peer sends first
		checks []bool // readStalled at each check
	}{
		{name: "no read waiting", calls: 0, checks: []bool{false, false}},
		{name: "one read waiting, nothing received", calls: 1, checks: []bool{false, true, true}},
		{name: "the same read, bytes arrived unread", calls: 1, send: "hello", checks: []bool{false, false}},
		{name: "a read each check: a slow server that sends", calls: 3, bytes: 5, checks: []bool{false}},
		{name: "read all, the next read waiting", calls: 5, bytes: 5, checks: []bool{false, true}},
		{name: "between reads: processing on the CPU", calls: 6, bytes: 5, checks: []bool{false, false}},
	}
	for _, st := range steps {
		if st.send != "" {
			if _, err := s.Write([]byte(st.send)); err != nil {
				t.Fatal(err)
			}
			if !waitFor(func() bool { _, got := gaugeOf(c); _, r, _ := socketCounts(got); return r > 0 }) {
				t.Fatalf("%s: the kernel never counted the peer's bytes", st.name)
			}
		}
		g.calls, g.bytes = st.calls, st.bytes
		for i, want := range st.checks {
			if got := w.readStalled(); got != want {
				t.Errorf("%s: readStalled %v at check %d, want %v", st.name, got, i+1, want)
			}
		}
	}
}

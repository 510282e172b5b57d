package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestStartGateHoldsAWebSocketUntilItsUpgradeIsWritten: a ws: session
// holds its VU's place in the start gate through its dial and TLS
// handshake, as an HTTP request does (before, it left the gate as the
// session began, so 10,000 VUs dialled and handshook at once, each
// handshake's goroutine with 8 KiB of stack). Against a server that
// accepts and never answers the TLS handshake, with a gate of one, the
// second VU connects only once the first has given up (its stall timeout)
// and closed its connection: the grace of a handshake that waits for its
// server is set past the test (TestStartGateIsLeftByAHangingConnect).
func TestStartGateHoldsAWebSocketUntilItsUpgradeIsWritten(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	second := make(chan error, 1) // whether the first connection had ended when the second came
	go func() {
		var first net.Conn
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			if first == nil {
				first = c
				continue
			}
			// Its Client Hello, then EOF if the client closed it; a first
			// connection still open reads nothing more until the deadline.
			_ = first.SetReadDeadline(time.Now().Add(300 * time.Millisecond)) // shorter than the stall timeout
			_, err = io.ReadAll(first)
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = fmt.Errorf("the second VU connected while the first was in its TLS handshake")
			} else {
				err = nil
			}
			second <- err
			return
		}
	}()
	src := fmt.Sprintf(`scenarios:
  s:
    vus: 2
    duration: 1m
    flow:
      - ws: wss://%s/
        duration: 1m
        timeout: 1s
`, ln.Addr())
	p, err := plan.Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := New(p, newTestRecorder(), Options{})
	e.startGate, e.startGateGrace = 1, never
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	select {
	case err := <-second:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the second VU never connected")
	}
	endRun(t, cancel, done)
}

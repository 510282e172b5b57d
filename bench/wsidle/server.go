package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// server is a WebSocket server on 127.0.0.1 that accepts sessions and says
// nothing; it counts the sessions open.
type server struct {
	URL  string
	open atomic.Int64
	srv  *http.Server
}

// startServer starts the silent server.
func startServer() (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &server{URL: "ws://" + ln.Addr().String() + "/idle"}
	s.srv = &http.Server{ReadHeaderTimeout: 30 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
		if err != nil {
			return
		}
		defer c.CloseNow()
		s.open.Add(1)
		defer s.open.Add(-1)
		_, _, _ = c.Read(r.Context()) // until the client closes
	})}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// waitOpen waits until n sessions are open, for at most limit.
func (s *server) waitOpen(n int, limit time.Duration, exited <-chan error) error {
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for s.open.Load() < int64(n) {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d sessions open after %s", s.open.Load(), n, limit)
		}
		select {
		case err := <-exited:
			return fmt.Errorf("the client exited with %d of %d sessions open: %v", s.open.Load(), n, err)
		case <-tick.C:
		}
	}
	return nil
}

// waitClosed waits until no session is open, for at most limit, so that
// the next client starts from an idle server.
func (s *server) waitClosed(limit time.Duration) {
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for s.open.Load() > 0 && time.Now().Before(deadline) {
		<-tick.C
	}
}

// close stops the server.
func (s *server) close() { _ = s.srv.Shutdown(context.Background()) }

package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Target is a running demo shop.
type Target struct {
	URL  string // e.g. http://127.0.0.1:38211
	srv  *http.Server
	done chan error
}

// Start serves a new demo shop on addr ("127.0.0.1:0" picks a free port).
func Start(addr string) (*Target, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("demo target: %w", err)
	}
	shop := NewShop(2000, 10000, 1000)
	t := &Target{
		URL:  "http://" + ln.Addr().String(),
		srv:  &http.Server{Handler: shop.Handler(), ReadHeaderTimeout: 10 * time.Second},
		done: make(chan error, 1),
	}
	go func() { t.done <- t.srv.Serve(ln) }()
	return t, nil
}

// Wait blocks until ctx ends or the server fails.
func (t *Target) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-t.done:
		return err
	}
}

// Close stops the server, letting requests in flight finish for a moment.
func (t *Target) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := t.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return t.srv.Close()
	}
	return err
}

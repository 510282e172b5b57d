// Command protoserve is the target of bench/proto.sh: grpc-go's interop
// TestService (with reflection and health), a server nobody here wrote, and a
// WebSocket echo server, each on its own 127.0.0.1 port. It runs until it is
// signalled.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/coder/websocket"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/reflection"
)

func main() {
	grpcAddr := flag.String("grpc", "127.0.0.1:18200", "gRPC (plaintext) listen address; empty: none")
	wsAddr := flag.String("ws", "127.0.0.1:18201", "WebSocket echo listen address; empty: none")
	flag.Parse()
	if err := run(*grpcAddr, *wsAddr); err != nil {
		fmt.Fprintln(os.Stderr, "protoserve:", err)
		os.Exit(1)
	}
}

func run(grpcAddr, wsAddr string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errs := make(chan error, 2)
	if grpcAddr != "" {
		lis, err := net.Listen("tcp", grpcAddr)
		if err != nil {
			return err
		}
		srv := grpc.NewServer()
		testgrpc.RegisterTestServiceServer(srv, interop.NewTestServer())
		healthpb.RegisterHealthServer(srv, health.NewServer())
		reflection.Register(srv)
		go func() { errs <- srv.Serve(lis) }()
		defer srv.Stop()
	}
	if wsAddr != "" {
		lis, err := net.Listen("tcp", wsAddr)
		if err != nil {
			return err
		}
		srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(echo)}
		go func() { errs <- srv.Serve(lis) }()
		defer srv.Close()
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-errs:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// echo sends every message of a WebSocket session back as it came, until the
// client closes; messages are at most 64 KiB.
func echo(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(64 << 10)
	ctx := r.Context()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		if err := c.Write(ctx, typ, msg); err != nil {
			return
		}
	}
}

package otlp

import (
	"context"
	"fmt"
	"net"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
)

// grpcTraces is the OTLP/gRPC trace service, keeping spans in the receiver.
type grpcTraces struct {
	ptraceotlp.UnimplementedGRPCServer
	r *Receiver
}

// Export keeps one export's spans.
func (g *grpcTraces) Export(_ context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	g.r.keep(convert(req.Traces()))
	return ptraceotlp.NewExportResponse(), nil
}

// ServeGRPC also receives OTLP over gRPC on addr (host:port), with the same
// decoder the collector uses; Close stops it. It returns the address.
func (r *Receiver) ServeGRPC(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("OTLP/gRPC receiver: %w", err)
	}
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(maxBody))
	ptraceotlp.RegisterGRPCServer(srv, &grpcTraces{r: r})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln) // returns when the server stops
	}()
	r.mu.Lock()
	r.stopGRPC = func() {
		stopped := make(chan struct{})
		go func() { srv.GracefulStop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(time.Second):
			srv.Stop() // exports still under way after a second are cut off
		}
		<-done
	}
	r.mu.Unlock()
	return ln.Addr().String(), nil
}

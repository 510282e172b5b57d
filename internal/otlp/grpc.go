package otlp

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/access"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
)

// Bounds of the gRPC receiver: messages as the collector's gRPC receiver
// bounds them by default, and connections each with one stream at a time,
// so that the messages read and waiting for a decode slot stay few.
const (
	maxMessage = 4 << 20
	maxConns   = 8
)

// ServeGRPC also receives OTLP over gRPC on addr (host:port); Close stops
// it. It returns the address. On an address other hosts can reach it
// requires the receiver's token (made up now when there is none), as
// authorization: Bearer metadata, checked before the message is read.
// Messages are decoded as protobuf bodies are, in the receiver's decode
// slots.
func (r *Receiver) ServeGRPC(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("OTLP/gRPC receiver: %w", err)
	}
	r.mu.Lock()
	if r.token == "" && !access.IsLoopback(ln.Addr()) {
		r.token = access.NewToken()
	}
	r.mu.Unlock()
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(maxMessage), grpc.MaxConcurrentStreams(1), grpc.ConnectionTimeout(5*time.Second),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: time.Minute}),
		grpc.InTapHandle(r.grpcGuard), grpc.ForceServerCodecV2(rawCodec{}))
	srv.RegisterService(&traceService, r)
	done := make(chan struct{})
	lim := &limitListener{Listener: ln, slots: make(chan struct{}, maxConns), closed: make(chan struct{})}
	go func() {
		defer close(done)
		_ = srv.Serve(lim) // returns when the server stops
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

// traceService is OTLP's TraceService, its Export taking the request as
// bytes for decodeProto.
var traceService = grpc.ServiceDesc{
	ServiceName: "opentelemetry.proto.collector.trace.v1.TraceService",
	HandlerType: (*any)(nil),
	Methods:     []grpc.MethodDesc{{MethodName: "Export", Handler: grpcExport}},
	Metadata:    "opentelemetry/proto/collector/trace/v1/trace_service.proto",
}

// grpcExport keeps one export's spans; its answer, an
// ExportTraceServiceResponse with nothing to say, is empty.
func grpcExport(srv any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
	r := srv.(*Receiver)
	in := &rawMessage{}
	if err := dec(in); err != nil {
		return nil, err
	}
	release, err := r.takeSlot(ctx)
	if err != nil {
		r.reject()
		return nil, status.Error(codes.Unavailable, err.Error()) // retryable, as OTLP says
	}
	defer release()
	if err := r.keepProto(in.b); err != nil {
		r.reject()
		return nil, status.Error(codes.InvalidArgument, "bad OTLP trace export: "+err.Error())
	}
	return &rawMessage{}, nil
}

// rawMessage is a gRPC message as its bytes.
type rawMessage struct{ b []byte }

// rawCodec passes messages as their bytes: the receiver decodes them.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(v.(*rawMessage).b)}, nil
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(*rawMessage)
	if !ok {
		return fmt.Errorf("OTLP/gRPC receiver: cannot decode into %T", v)
	}
	m.b = data.Materialize()
	return nil
}

// grpcGuard refuses an export without the receiver's token, when it has
// one, before its message is read.
func (r *Receiver) grpcGuard(ctx context.Context, info *tap.Info) (context.Context, error) {
	token := r.Token()
	if token == "" {
		return ctx, nil
	}
	auth := ""
	if v := info.Header.Get("authorization"); len(v) > 0 {
		auth = v[0]
	}
	if code, msg := checkBearer(auth, token); code != 0 {
		r.reject()
		return nil, status.Error(codes.Unauthenticated, msg)
	}
	return ctx, nil
}

// limitListener accepts at most cap(slots) connections at once; the next
// waits in the kernel's queue until one closes.
type limitListener struct {
	net.Listener
	slots     chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &slotConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// slotConn gives its listener's slot back when closed, once.
type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

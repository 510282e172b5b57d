package grpc

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestCallBytesOnTheWire: a call's sent and received bytes are what its
// connection carried (HTTP/2 preface, settings, headers, frames), as the
// HTTP path and WebSocket count theirs, not the messages' encoded size
// (three calls "sent" 9 B, their messages, of the 348 B the server read).
// Counted against the server's own connection: only what crosses after a
// VU's last call (its close) is in no call.
func TestCallBytesOnTheWire(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lis, counts := prototest.CountBytes(lis)
	srv := grpc.NewServer()
	testgrpc.RegisterTestServiceServer(srv, interop.NewTestServer())
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	defer srv.Stop()

	s := plan.Session{GRPC: &plan.GRPC{Target: lis.Addr().String(), Method: "grpc.testing.TestService/UnaryCall",
		Messages: msg(`{"response_size": 1000}`)},
		Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage}
	protos(s.GRPC)
	st, err := Protocol{}.Prepare(&s, env())
	if err != nil {
		t.Fatal(err)
	}
	sess := st.NewSession()
	vu := prototest.NewVU()
	const calls = 3
	for range calls {
		sess.Run(context.Background(), vu, time.Now())
	}
	var sent, received int64
	for _, r := range vu.Samples {
		if r.Kind != sample.OK {
			t.Fatalf("a call failed: %v %s", r.Kind, r.Err)
		}
		sent, received = sent+r.Sent, received+r.Received
	}
	wrote := counts.WrittenAtLeast(received, 5*time.Second)
	read := counts.Read.Load()
	sess.Close()
	if received <= calls*1000 || received > wrote || float64(received) < 0.95*float64(wrote) {
		t.Errorf("received %d B over %d calls; the server wrote %d B (the messages alone: %d B)", received, calls, wrote, calls*1000)
	}
	if sent <= 0 || sent > read || float64(sent) < 0.95*float64(read) {
		t.Errorf("sent %d B over %d calls; the server read %d B", sent, calls, read)
	}
}

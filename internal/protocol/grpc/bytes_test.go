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
// Counted against the server's own connection: only what is counted after
// a VU's last call ended is in no call: its close, the control frames the
// last call made the client answer (a BDP PING, a PING ack, a
// WINDOW_UPDATE), and at most that call's own request, whose write may
// return (and count) only after the response came back.
func TestCallBytesOnTheWire(t *testing.T) {
	const trailingControl = 2*17 + 2*13 // two PINGs and two WINDOW_UPDATEs (frame header 9 B + payload)
	const calls = 5
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
	for range calls {
		sess.Run(context.Background(), vu, time.Now())
	}
	var sent, received, oneCall int64
	for i, r := range vu.Samples {
		if r.Kind != sample.OK {
			t.Fatalf("a call failed: %v %s", r.Kind, r.Err)
		}
		sent, received = sent+r.Sent, received+r.Received
		if i > 0 { // the first call carries the connection's preface and settings
			oneCall = max(oneCall, r.Sent)
		}
	}
	wrote := counts.WrittenAtLeast(received, 5*time.Second)
	read := counts.ReadAtLeast(sent, 5*time.Second)
	sess.Close()
	if received <= calls*1000 || received > wrote || float64(received) < 0.95*float64(wrote) {
		t.Errorf("received %d B over %d calls; the server wrote %d B (the messages alone: %d B)", received, calls, wrote, calls*1000)
	}
	if trailing := oneCall + trailingControl; sent <= 0 || sent > read || read-sent > trailing {
		t.Errorf("sent %d B over %d calls; the server read %d B (at most %d B may trail the last call)", sent, calls, read, trailing)
	}
}

package engine

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/faultserver"
	"github.com/loadlens/loadlens/internal/plan"
)

// lateWriteConn is a connection whose Write returns some time after its
// bytes were written, as net/http's write goroutine does when a busy host
// leaves it unscheduled after the system call.
type lateWriteConn struct {
	net.Conn
	late time.Duration
}

func (c *lateWriteConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	time.Sleep(c.late) // the delay under test, not a synchronisation: nothing waits on it
	return n, err
}

// TestSentIsWhatTheServerRead: a net/http hop's sent bytes are what the
// server read, also when the server answered and reset the connection
// before the write's goroutine counted them (Sent 0 for 6 requests of 889
// the server had read, under load). The server's bytes per request are
// compared with each hop's.
func TestSentIsWhatTheServerRead(t *testing.T) {
	for _, c := range []struct {
		name string
		mode faultserver.Mode
	}{{"reset mid-response", faultserver.ResetMidResponse}, {"close without response", faultserver.CloseWithoutResponse}} {
		mode := c.name
		srv := faultserver.Start(t, c.mode, faultserver.Options{})
		e := New(&plan.Plan{}, newTestRecorder(), Options{NetHTTPOnly: true})
		n := newNetTrip(e, false, nil, nil)
		defer n.close()
		var d net.Dialer
		n.tr.DialContext = countingDial(func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &lateWriteConn{Conn: c, late: 200 * time.Millisecond}, nil
		}, &n.wire)
		const hops = 3
		var sent int64
		for i := range hops {
			q := &hop{method: "GET", url: []byte(srv.URL + "/x"), deadline: time.Now().Add(time.Minute), first: true, start: time.Now()}
			var res hopResult
			var rs response
			if err := n.roundTrip(context.Background(), q, &res, &rs); err == nil {
				t.Fatalf("%s, hop %d: no error from a server that does not answer whole", mode, i)
			}
			read := srv.Received()
			if res.sent <= 0 || res.sent != read-sent {
				t.Errorf("%s, hop %d: sent %d bytes, the server read %d", mode, i, res.sent, read-sent)
			}
			sent = read
		}
		if srv.Requests() != hops {
			t.Errorf("%s: the server read %d requests, want %d", mode, srv.Requests(), hops)
		}
	}
}

package h2

import (
	"bytes"
	"context"
	"net"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// countingConn counts its writes.
type countingConn struct {
	net.Conn
	writes *int
}

func (c countingConn) Write(p []byte) (int, error) {
	*c.writes++
	return c.Conn.Write(p)
}

// TestPingWithResponseAckedWithNextRequest: a PING that arrives in the
// same read as the response (gRPC servers PING at every request's DATA) is
// answered with the next request's write, not a write of its own; the
// server's single write per answer makes that read deterministic.
func TestPingWithResponseAckedWithNextRequest(t *testing.T) {
	const requests = 20
	cases := []struct {
		name string
		ping bool
	}{
		{"no PING", false},
		{"a PING with every response", true},
	}
	writes := map[bool]int{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := startFault(t, func(s *session, id uint32) {
				var b bytes.Buffer
				fr := http2.NewFramer(&b, nil)
				if tc.ping {
					fr.WritePing(false, [8]byte{'l', 'o', 'a', 'd', 'l', 'e', 'n', 's'})
				}
				s.hb.Reset()
				s.enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
				s.enc.WriteField(hpack.HeaderField{Name: "content-length", Value: "2"})
				fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: s.hb.Bytes(), EndHeaders: true})
				fr.WriteData(id, true, []byte("ok"))
				s.nc.Write(b.Bytes()) // one write: the PING and the answer arrive together
			})
			n := 0
			d := &net.Dialer{}
			c := New(Config{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				nc, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return countingConn{Conn: nc, writes: &n}, nil
			}})
			defer c.Close()
			for i := range requests {
				var resp h1.Response
				if err := c.Do(&h1.Request{Method: "GET", URL: []byte("http://" + fs.addr + "/"), Timeout: 5 * time.Second}, &resp); err != nil || resp.Status != 200 {
					t.Fatalf("request %d: status %d, %v", i, resp.Status, err)
				}
			}
			writes[tc.ping] = n
			if c.Close(); tc.ping && fs.acks.Load() < requests { // the SETTINGS ack and the PINGs' but the last, at least
				t.Errorf("the server read %d acknowledgements for %d PINGs and a SETTINGS", fs.acks.Load(), requests)
			}
		})
	}
	if writes[true] != writes[false] {
		t.Errorf("%d writes with a PING at every response, %d without: the acks took writes of their own", writes[true], writes[false])
	}
}

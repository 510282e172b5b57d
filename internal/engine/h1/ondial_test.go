package h1

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
)

// TestOnDialBracketsEachDial: OnDial is called as a dial starts, and what
// it returns with the connection dialled, before the request is written; a
// reused connection dials nothing. Both ways of dialling: inline and aside.
func TestOnDialBracketsEachDial(t *testing.T) {
	url := []byte(h1test.FixedServer(t))
	for _, inline := range []bool{false, true} {
		t.Run(map[bool]string{false: "aside", true: "inline"}[inline], func(t *testing.T) {
			var dialing atomic.Bool
			var starts, ends, writtenWhileDialing atomic.Int32
			d := &net.Dialer{Timeout: 5 * time.Second}
			c := New(Config{Inline: inline, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				if !dialing.Load() {
					t.Error("a dial that OnDial was not told of")
				}
				return d.DialContext(ctx, network, addr)
			}})
			defer c.Close()
			req := &Request{Method: "GET", URL: url, Timeout: 5 * time.Second,
				OnDial: func() func(net.Conn) {
					starts.Add(1)
					dialing.Store(true)
					return func(nc net.Conn) {
						if nc == nil {
							t.Error("told of no connection")
						}
						dialing.Store(false)
						ends.Add(1)
					}
				},
				OnWritten: func() {
					if dialing.Load() {
						writtenWhileDialing.Add(1)
					}
				}}
			var resp Response
			for range 3 {
				if err := c.Do(req, &resp); err != nil {
					t.Fatal(err)
				}
			}
			if s, e, w := starts.Load(), ends.Load(), writtenWhileDialing.Load(); s != 1 || e != 1 || w != 0 {
				t.Fatalf("%d dials told, %d ended, %d written while dialling; want 1, 1, 0 (3 requests on one connection)", s, e, w)
			}
		})
	}
}

package h1

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
)

// TestIdleConnectionHoldsNoReadBuffer: between exchanges a kept-alive
// connection gives its read buffer back (a thinking VU holds none), over
// http and https, and the next exchange on it still reads its response.
func TestIdleConnectionHoldsNoReadBuffer(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	for _, c := range []struct {
		name string
		url  string
	}{{"http", h1test.FixedServer(t)}, {"https", h1test.FixedTLSServer(t, srvCfg)}} {
		t.Run(c.name, func(t *testing.T) {
			cl := New(Config{Dialer: &net.Dialer{}, TLS: cliCfg, HandshakeTimeout: 10 * time.Second})
			defer cl.Close()
			for i := range 3 {
				var resp Response
				if err := cl.Do(&Request{Method: "GET", URL: []byte(c.url + "/"), Timeout: 10 * time.Second, KeepBody: true}, &resp); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if want := h1test.FixedReply[strings.Index(h1test.FixedReply, "\r\n\r\n")+4:]; resp.Status != 200 || string(resp.Body) != want {
					t.Fatalf("request %d: status %d, body %q", i, resp.Status, resp.Body)
				}
				if len(cl.conns) != 1 || cl.conns[0].used != i+1 {
					t.Fatalf("request %d: %d connections; want the first kept", i, len(cl.conns))
				}
				if cl.conns[0].buf != nil {
					t.Fatalf("request %d: the idle connection holds a read buffer of %d bytes", i, len(cl.conns[0].buf))
				}
			}
		})
	}
}

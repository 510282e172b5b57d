package h1

import (
	"crypto/tls"
	"net"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/engine/h1/h1test"
)

// tlsClient returns a client that trusts the certificate of srvCfg's pair.
func tlsClient(client *tls.Config) *Client {
	return New(Config{Dialer: &net.Dialer{}, TLS: client, HandshakeTimeout: 10 * time.Second})
}

func TestDoOverTLS(t *testing.T) {
	srvCfg, cliCfg := h1test.Certs(t)
	url := h1test.FixedTLSServer(t, srvCfg)
	cl := tlsClient(cliCfg)
	defer cl.Close()
	for i := range 3 {
		resp, err := do(t, cl, "GET", url+"/x", true)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status != 200 || string(resp.Body) != "ok" {
			t.Fatalf("request %d: %d %q", i, resp.Status, resp.Body)
		}
		t.Logf("request %d: sent %d received %d connect %v tls %v", i, resp.Sent, resp.Received, resp.Connect, resp.TLS)
	}
}

func BenchmarkDoTLS(b *testing.B) {
	srvCfg, cliCfg := h1test.Certs(b)
	cl := tlsClient(cliCfg)
	defer cl.Close()
	req := &Request{Method: "GET", URL: []byte(h1test.FixedTLSServer(b, srvCfg) + "/x"), Timeout: time.Second}
	var resp Response
	b.ReportAllocs()
	defer cpuMeter(b)()
	for b.Loop() {
		if err := cl.Do(req, &resp); err != nil {
			b.Fatal(err)
		}
	}
}

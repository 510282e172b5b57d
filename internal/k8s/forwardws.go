package k8s

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coder/websocket"
	constants "k8s.io/apimachinery/pkg/util/portforward"
	"k8s.io/client-go/rest"
	streamhttp "k8s.io/streaming/pkg/httpstream"
	streamspdy "k8s.io/streaming/pkg/httpstream/spdy"
)

// pingPeriod keeps the tunnel's SPDY connection alive through idle proxies.
const pingPeriod = 10 * time.Second

// maxTunnelMessage bounds one WebSocket message of the tunnel: a SPDY
// frame, whose length has 24 bits, and its header.
const maxTunnelMessage = 1<<24 + 64

// tunnelDialer dials SPDY inside a WebSocket, as client-go's
// portforward.NewSPDYOverWebsocketDialer does, on github.com/coder/websocket
// (which the WebSocket steps link already) rather than gorilla's.
type tunnelDialer struct {
	url    *url.URL
	client *http.Client
}

func newTunnelDialer(url *url.URL, cfg *rest.Config) (*tunnelDialer, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.NextProtos = []string{"http/1.1"} // an upgrade is HTTP/1.1 (net/http asks for it too on a WebSocket request)
	rt, err := rest.TransportFor(cfg)
	if err != nil {
		return nil, err
	}
	return &tunnelDialer{url: url, client: &http.Client{Transport: rt}}, nil
}

func (d *tunnelDialer) Dial(protocols ...string) (streamhttp.Connection, string, error) {
	tunnelled := make([]string, len(protocols))
	for i, p := range protocols {
		tunnelled[i] = constants.WebsocketsSPDYTunnelingPrefix + p
	}
	ctx := context.Background() // the tunnel lives until closed
	c, resp, err := websocket.Dial(ctx, d.url.String(), &websocket.DialOptions{HTTPClient: d.client, Subprotocols: tunnelled})
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			return nil, "", &streamhttp.UpgradeFailureError{Cause: err} // an older server, or a proxy: SPDY next
		}
		return nil, "", err
	}
	protocol, ok := strings.CutPrefix(c.Subprotocol(), constants.WebsocketsSPDYTunnelingPrefix)
	if !ok {
		_ = c.CloseNow()
		return nil, "", &streamhttp.UpgradeFailureError{Cause: fmt.Errorf("invalid protocol, expected one of %q, got %q", tunnelled, c.Subprotocol())}
	}
	c.SetReadLimit(maxTunnelMessage)
	spdyConn, err := streamspdy.NewClientConnectionWithPings(websocket.NetConn(ctx, c, websocket.MessageBinary), pingPeriod)
	return spdyConn, protocol, err
}

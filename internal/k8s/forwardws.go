package k8s

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	gwebsocket "github.com/gorilla/websocket"
	constants "k8s.io/apimachinery/pkg/util/portforward"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/transport/websocket"
	streamhttp "k8s.io/streaming/pkg/httpstream"
	streamspdy "k8s.io/streaming/pkg/httpstream/spdy"
)

// pingPeriod keeps the tunnel's SPDY connection alive through idle proxies.
const pingPeriod = 10 * time.Second

// tunnelDialer dials SPDY inside a WebSocket, as client-go's
// portforward.NewSPDYOverWebsocketDialer does.
type tunnelDialer struct {
	url       *url.URL
	transport http.RoundTripper
	holder    websocket.ConnectionHolder
}

func newTunnelDialer(url *url.URL, cfg *rest.Config) (*tunnelDialer, error) {
	transport, holder, err := websocket.RoundTripperFor(cfg)
	if err != nil {
		return nil, err
	}
	return &tunnelDialer{url: url, transport: transport, holder: holder}, nil
}

func (d *tunnelDialer) Dial(protocols ...string) (streamhttp.Connection, string, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, d.url.String(), nil)
	if err != nil {
		return nil, "", err
	}
	tunnelled := make([]string, len(protocols))
	for i, p := range protocols {
		tunnelled[i] = constants.WebsocketsSPDYTunnelingPrefix + p
	}
	conn, err := websocket.Negotiate(d.transport, d.holder, req, tunnelled...)
	if err != nil {
		return nil, "", err
	}
	if conn == nil {
		return nil, "", fmt.Errorf("negotiated websocket connection is nil")
	}
	protocol := strings.TrimPrefix(conn.Subprotocol(), constants.WebsocketsSPDYTunnelingPrefix)
	spdyConn, err := streamspdy.NewClientConnectionWithPings(&tunnelConn{conn: conn}, pingPeriod)
	return spdyConn, protocol, err
}

// tunnelConn is a net.Conn over a WebSocket's binary messages.
type tunnelConn struct {
	conn      *gwebsocket.Conn
	inMessage io.Reader
	closeOnce sync.Once
}

var _ net.Conn = (*tunnelConn)(nil)

func (c *tunnelConn) Read(p []byte) (int, error) {
	for {
		if c.inMessage == nil {
			kind, r, err := c.conn.NextReader()
			if err != nil {
				var ce *gwebsocket.CloseError
				if errors.As(err, &ce) && ce.Code == gwebsocket.CloseNormalClosure {
					return 0, io.EOF
				}
				return 0, err
			}
			if kind != gwebsocket.BinaryMessage {
				return 0, fmt.Errorf("invalid message type received")
			}
			c.inMessage = r
		}
		n, err := c.inMessage.Read(p)
		if n == 0 && err == io.EOF {
			c.inMessage = nil // the next message
			continue
		}
		return n, err
	}
}

func (c *tunnelConn) Write(p []byte) (n int, err error) {
	w, err := c.conn.NextWriter(gwebsocket.BinaryMessage)
	if err != nil {
		return 0, err
	}
	defer func() {
		if cerr := w.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	return w.Write(p)
}

func (c *tunnelConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		msg := gwebsocket.FormatCloseMessage(gwebsocket.CloseNormalClosure, "")
		werr := c.conn.WriteControl(gwebsocket.CloseMessage, msg, time.Now().Add(time.Second))
		err = c.conn.Close()
		if err == nil {
			err = werr
		}
	})
	return err
}

func (c *tunnelConn) LocalAddr() net.Addr  { return c.conn.LocalAddr() }
func (c *tunnelConn) RemoteAddr() net.Addr { return c.conn.RemoteAddr() }
func (c *tunnelConn) SetDeadline(t time.Time) error {
	return errors.Join(c.conn.SetReadDeadline(t), c.conn.SetWriteDeadline(t))
}
func (c *tunnelConn) SetReadDeadline(t time.Time) error  { return c.conn.SetReadDeadline(t) }
func (c *tunnelConn) SetWriteDeadline(t time.Time) error { return c.conn.SetWriteDeadline(t) }

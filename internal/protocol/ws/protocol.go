// Package ws runs WebSocket steps (ws:): a VU connects with its headers
// and subprotocols, sends text or binary messages when the session opens,
// on a schedule and in reply to messages matching a reply:'s on: (with
// variables extracted from them), reads messages (checking each), ends at
// a message matching until:, max_messages or the step's duration, and
// closes. One sample per session, whose Facts hold the messages sent and
// received, the time to the first, the gaps, the reply time to until: and
// the close code.
package ws

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// Protocol is WebSocket, as the engine's registry names it: "ws".
type Protocol struct{}

var _ protocol.Protocol = Protocol{}

// Prepare returns the step ready for every VU.
func (Protocol) Prepare(s *plan.Session, env protocol.Env) (protocol.Step, error) {
	cfg := env.TLS()
	cfg.NextProtos = []string{"http/1.1"}
	tr := &http.Transport{
		Proxy:               nil, // load goes where the test says, never through an environment proxy
		DialContext:         dialWire(env.Dialer),
		TLSClientConfig:     cfg,
		TLSHandshakeTimeout: env.HandshakeTimeout,
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{}, // the upgrade is HTTP/1.1's
		DisableKeepAlives:   true,                                                   // every handshake's connection becomes its session's
	}
	return &step{s: s, client: &http.Client{Transport: tr}}, nil
}

// step is a prepared ws: step. Its one HTTP client runs every VU's
// handshakes: a connection is never pooled (each becomes its session's), so
// a client per VU would only hold a Transport per idle session.
type step struct {
	s      *plan.Session
	client *http.Client
}

// NewSession returns a VU's runner.
func (st *step) NewSession() protocol.Session {
	return &session{st: st, wire: &protocol.Wire{}}
}

// wireKey is the context key of the session's Wire, which the shared
// transport's dial counts the connection's bytes into.
type wireKey struct{}

// dialWire returns a DialContext that counts into the Wire of the
// session whose handshake dials (a context value).
func dialWire(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if w, ok := ctx.Value(wireKey{}).(*protocol.Wire); ok {
			return w.Dial(d)(ctx, network, addr)
		}
		return d.DialContext(ctx, network, addr)
	}
}

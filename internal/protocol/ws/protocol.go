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
	"crypto/tls"
	"net/http"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// Protocol is WebSocket, as the engine's registry names it: "ws".
type Protocol struct{}

var _ protocol.Protocol = Protocol{}

// Prepare returns the step ready for every VU.
func (Protocol) Prepare(s *plan.Session, env protocol.Env) (protocol.Step, error) {
	return &step{s: s, env: env}, nil
}

// step is a prepared ws: step.
type step struct {
	s   *plan.Session
	env protocol.Env
}

// NewSession returns a VU's runner, with its own HTTP/1.1 client for the
// handshake, as each VU has its own connections on the HTTP path.
func (st *step) NewSession() protocol.Session {
	cfg := st.env.TLS()
	cfg.NextProtos = []string{"http/1.1"}
	wire := &protocol.Wire{}
	tr := &http.Transport{
		Proxy:               nil, // load goes where the test says, never through an environment proxy
		DialContext:         wire.Dial(st.env.Dialer),
		TLSClientConfig:     cfg,
		TLSHandshakeTimeout: st.env.HandshakeTimeout,
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{}, // the upgrade is HTTP/1.1's
	}
	return &session{st: st, wire: wire, client: &http.Client{Transport: tr}}
}

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
	"sync"

	"github.com/gorilla/websocket"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// Protocol is WebSocket, as the engine's registry names it: "ws".
type Protocol struct{}

var _ protocol.Protocol = Protocol{}

// Prepare returns the step ready for every VU.
func (Protocol) Prepare(s *plan.Session, env protocol.Env) (protocol.Step, error) {
	cfg := env.TLS()
	cfg.NextProtos = []string{"http/1.1"} // the upgrade is HTTP/1.1's
	d := &websocket.Dialer{
		NetDialContext:    dialWire(env.Dialer),
		NetDialTLSContext: dialTLS(env.Dialer, cfg),
		Proxy:             nil, // load goes where the test says, never through an environment proxy
		TLSClientConfig:   cfg,
		HandshakeTimeout:  env.HandshakeTimeout,
		ReadBufferSize:    readBuffer,
		WriteBufferPool:   writeBuffers,
		Subprotocols:      s.Subprotocols,
	}
	return &step{s: s, dialer: d}, nil
}

// readBuffer is a session's read buffer, held while it is open: small, so
// that an idle session costs little (a larger message is read straight into
// the session's message buffer).
const readBuffer = 512

// writeBuffers lend a session its frame buffer only while it writes, so
// that an idle session holds none.
var writeBuffers = &sync.Pool{}

// step is a prepared ws: step. Its one dialer runs every VU's handshakes.
type step struct {
	s      *plan.Session
	dialer *websocket.Dialer
}

// NewSession returns a VU's runner.
func (st *step) NewSession() protocol.Session {
	w := &protocol.Wire{}
	return &session{st: st, wire: w, dialing: dialing{wire: w}}
}

// dialingKey is the context key of the session's dialing, which the
// shared dialer counts the connection's bytes into and holds it in.
type dialingKey struct{}

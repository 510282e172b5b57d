// Package sse runs Server-Sent Events steps (sse:): a VU subscribes to an
// event stream, reads events until the step's duration or max_events,
// reconnects with Last-Event-ID when the server closes, and reports one
// sample per session whose Facts hold the events received, the time to
// the first one, the gaps between them and the session's length.
package sse

import (
	"crypto/tls"
	"net/http"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
)

// Protocol is Server-Sent Events, as the engine's registry names it: "sse".
type Protocol struct{}

var _ protocol.Protocol = Protocol{}

// Prepare returns the step ready for every VU.
func (Protocol) Prepare(s *plan.Session, env protocol.Env) (protocol.Step, error) {
	return &step{s: s, env: env}, nil
}

// step is a prepared sse: step.
type step struct {
	s   *plan.Session
	env protocol.Env
}

// readSize is how much of the stream one read takes.
const readSize = 16 << 10

// NewSession returns a VU's runner: its own HTTP/1.1 client, as each VU
// has its own connections on the HTTP path, and its buffers.
func (st *step) NewSession() protocol.Session {
	cfg := st.env.TLS()
	cfg.NextProtos = []string{"http/1.1"}
	wire := &protocol.Wire{}
	tr := &http.Transport{
		Proxy:               nil, // load goes where the test says, never through an environment proxy
		DialContext:         wire.Dial(st.env.Dialer),
		TLSClientConfig:     cfg,
		TLSHandshakeTimeout: st.env.HandshakeTimeout,
		DisableCompression:  true, // a compressed stream would buffer events
		MaxIdleConnsPerHost: 1,
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{}, // HTTP/1.1: one stream, one connection
	}
	s := &session{st: st, tr: tr, wire: wire, p: newParser(int(st.s.MaxMessage)), buf: make([]byte, readSize)}
	s.emitFn = s.emit
	return s
}

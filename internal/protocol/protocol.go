// Package protocol is the seam between the engine and the session
// protocols (Server-Sent Events today; WebSocket and gRPC streams next): a
// protocol prepares each of its steps once, runs a step for a VU, and
// reports what it measured as a sample.Request whose Facts hold its
// messages, time to first message, session length and gaps. The engine
// finds a protocol by the name a plan.Session carries, in its registry
// (engine/protocols.go); HTTP request/response keeps its own fast path.
// docs/protocols.md is the guide to adding one.
package protocol

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// Protocol is one session protocol: the engine calls Prepare for each of
// its steps before the run's clock starts.
type Protocol interface {
	// Prepare checks and builds, once, what every VU's run of step shares.
	Prepare(step *plan.Session, env Env) (Step, error)
}

// Checker is a Protocol that can check a step before any run, without its
// server (a gRPC method against its .proto files): validate reports what
// it finds at the step's line, and run does before it makes a run
// directory.
type Checker interface {
	Check(step *plan.Session) error
}

// Env is what the engine lends every protocol, so that its connections are
// made as the HTTP clients' are.
type Env struct {
	Dialer           *net.Dialer        // connect timeout and keep-alive of every VU's connections
	TLS              func() *tls.Config // a new base configuration per client (insecure_skip_tls_verify)
	HandshakeTimeout time.Duration
}

// Step is a prepared session step.
type Step interface {
	// NewSession returns one VU's state for the step (its client and
	// buffers), which the VU keeps across iterations and closes at its end.
	NewSession() Session
}

// Session is one VU's runner of one step. It is used by one goroutine.
type Session interface {
	// Run runs the step once: from intended (when it should have started;
	// never zero) until the step's limits, a failure, or ctx's end. It
	// records one sample through vu, with Facts set, and returns when the
	// session ended.
	Run(ctx context.Context, vu VU, intended time.Time) time.Time
	// Close releases the session's connections.
	Close()
}

// VU is what a session sees of the virtual user running it.
type VU interface {
	// Vars returns the VU's template context, to render URLs and headers.
	Vars() *tmpl.Context
	// Record records the session's sample; Facts may point into the
	// session's own buffers, which are read only during the call.
	Record(s *sample.Request)
	// Check records one evaluation of a check that ended at end.
	Check(id int32, end time.Time, ok bool)
	// Outcome classifies a failure as the HTTP path does: a cut-off by
	// ctx's end is sample.Interrupted, then timeouts, refusals, resets, TLS.
	Outcome(ctx context.Context, err error) (sample.Kind, string)
	// Since returns t's offset from the run's start, as samples carry times.
	Since(t time.Time) time.Duration
	// Written tells the engine that the session's opening request (a
	// WebSocket's upgrade request) is written, so that its VU gives up its
	// place in the start gate. It may be called from any goroutine, more
	// than once; only an Announcer's session calls it.
	Written()
	// Dialing tells the engine that the session's opening connection is
	// being dialled, so that a VU whose connection then waits for its peer
	// (a dial, or a TLS handshake the server never answers) gives up its
	// place in the start gate. What it returns, when not nil, is called
	// with the connection once dialled. Only an Announcer's session calls it.
	Dialing() (dialled func(net.Conn))
}

// Announcer is a Session whose Run calls VU.Written once its opening
// request is written: the engine's start gate then holds its VU's start
// through the dial, the TLS handshake and the request's writing, as it
// does an HTTP request's, and not while it waits for the server. The VU of
// any other session leaves the gate as the session begins (it may last
// the run).
type Announcer interface {
	Session
	AnnouncesWritten()
}

package engine

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol"
	"github.com/loadlens/loadlens/internal/protocol/grpc"
	"github.com/loadlens/loadlens/internal/protocol/sse"
	"github.com/loadlens/loadlens/internal/protocol/ws"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// protocols is the registry of session protocols, by the name a
// plan.Session carries: a new protocol is a package under
// internal/protocol and a line here.
func protocols() map[string]protocol.Protocol {
	return map[string]protocol.Protocol{
		"grpc": grpc.Protocol{},
		"sse":  sse.Protocol{},
		"ws":   ws.Protocol{},
	}
}

// prepareSessions prepares every session step of the plan once, before
// the VUs exist.
func (e *Engine) prepareSessions() error {
	env := protocol.Env{Dialer: e.dialer, TLS: e.tlsConfig, HandshakeTimeout: e.tlsTimeout}
	return eachSession(e.plan, func(s *plan.Session, p protocol.Protocol) error {
		ps, err := p.Prepare(s, env)
		if err == nil {
			e.sessions[s] = ps
		}
		return err
	})
}

// eachSession calls fn with every session step of p, groups and loops
// included, and its protocol, until fn returns an error.
func eachSession(p *plan.Plan, fn func(*plan.Session, protocol.Protocol) error) error {
	reg := protocols()
	var err error
	visit := func(st *plan.Step) {
		if st.Kind != plan.SessionStep || err != nil {
			return
		}
		pr, ok := reg[st.Session.Protocol]
		if !ok {
			err = fmt.Errorf("no protocol %q in the engine's registry", st.Session.Protocol)
			return
		}
		err = fn(st.Session, pr)
	}
	for _, s := range p.Scenarios {
		plan.Walk(s.Flow, visit)
	}
	return err
}

// session runs a session step for the VU; it returns false when the VU must stop.
func (v *vu) session(ctx context.Context, s *plan.Session, w *walk) bool {
	if ctx.Err() != nil {
		return false
	}
	run := v.sessionOf(s)
	intended := w.stepStart
	if intended.IsZero() {
		intended = time.Now()
	}
	if w.intended.IsZero() {
		w.intended = intended
	}
	if _, ok := run.(protocol.Announcer); !ok {
		v.leaveGate() // a session may last the run
	}
	v.lastStatus, v.checksOK = 0, true // what if: conditions read after the step: its status and checks
	v.sc.inflight.Add(1)
	w.end = run.Run(ctx, (*protoVU)(v), intended)
	v.sc.inflight.Add(-1)
	v.leaveGate() // an Announcer's whose request was never written (a failed dial)
	w.stepStart = time.Time{}
	return ctx.Err() == nil
}

// closeSessions releases the VU's session connections.
func (v *vu) closeSessions() {
	for _, s := range v.sess {
		s.run.Close()
	}
}

// vuSession is a VU's runner of one session step.
type vuSession struct {
	step *plan.Session
	run  protocol.Session
}

// sessionOf returns the VU's runner of step s, made on first use. A flow
// has a few session steps: a slice searched in order is a few words where a
// map was a quarter of a kilobyte per VU.
func (v *vu) sessionOf(s *plan.Session) protocol.Session {
	for i := range v.sess {
		if v.sess[i].step == s {
			return v.sess[i].run
		}
	}
	run := v.sc.e.sessions[s].NewSession()
	v.sess = append(v.sess, vuSession{s, run})
	return run
}

// protoVU is a vu as a session protocol sees it.
type protoVU vu

var _ protocol.VU = (*protoVU)(nil)

func (p *protoVU) Vars() *tmpl.Context { return &p.tc }

func (p *protoVU) Record(s *sample.Request) {
	p.lastStatus = s.Status
	p.sink.Request(s)
}

func (p *protoVU) Check(id int32, end time.Time, ok bool) {
	p.sink.Check(id, p.sc.e.since(end), ok)
	p.checksOK = p.checksOK && ok
}

func (p *protoVU) Since(t time.Time) time.Duration { return p.sc.e.since(t) }

// Written ends the VU's admission through the start gate: an Announcer's
// opening request is written (on the handshake's goroutine).
func (p *protoVU) Written() { (*vu)(p).leaveGate() }

// Dialing watches an Announcer's opening connection for the start gate
// (connectWatch): one that waits for its peer leaves it.
func (p *protoVU) Dialing() func(net.Conn) { return (*vu)(p).gateDial() }

func (p *protoVU) Outcome(ctx context.Context, err error) (sample.Kind, string) {
	if ctx.Err() != nil {
		return sample.Interrupted, interruptMessage(ctx)
	}
	return classify(err)
}

package dist

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// session is one coordinator's connection to this agent.
type session struct {
	cfg  *AgentConfig
	nc   net.Conn
	c    *conn
	plan *plan.Plan
	seg  plan.Segment
	dir  string          // where the job's files were written
	over atomic.Bool     // the load ended and said so: a hang-up after it is no loss
	own  context.Context // the agent's own life: it ends on a signal to the agent
}

// accept welcomes a coordinator that authenticate let in.
func accept(cfg *AgentConfig, nc net.Conn) *session {
	c := newConn(nc)
	if err := c.send(kindWelcome, welcomeOf(cfg)); err != nil {
		return nil
	}
	_ = nc.SetDeadline(time.Time{}) // serve sets each read's; writes wait on TCP, and a dead peer fails them

	fmt.Fprintf(cfg.Out, "agent: coordinator %s connected\n", nc.RemoteAddr())
	return &session{cfg: cfg, nc: nc, c: c}
}

// serve answers the coordinator until it hangs up, goes silent or the
// load is over; it reports whether a run took place. The load never
// outlives the coordinator: its end, or silence beyond cfg.Silence, stops it.
func (s *session) serve(ctx context.Context) (ran bool) {
	silence := s.cfg.Silence
	if silence <= 0 {
		silence = DefaultSilence
	}
	s.own = ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	context.AfterFunc(ctx, func() { _ = s.nc.SetReadDeadline(time.Now()) }) // Ctrl-C ends the read below
	var loadDone chan struct{}
	defer func() {
		cancel(fmt.Errorf("the coordinator is gone"))
		if loadDone != nil {
			<-loadDone
		}
		s.cleanup()
	}()
	for {
		wait := silence
		if loadDone == nil {
			wait = max(silence, idleWait) // no load runs yet: the coordinator may be reaching the other agents
		}
		_ = s.nc.SetReadDeadline(time.Now().Add(wait))
		f, err := s.c.read()
		if err != nil {
			if loadDone != nil && !s.over.Load() {
				if s.own.Err() != nil {
					fmt.Fprintf(s.cfg.Out, "agent: %s: stopping the load and telling the coordinator\n", s.stoppedWhy())
				} else {
					fmt.Fprintf(s.cfg.Out, "agent: lost the coordinator (%v): stopping the load\n", err)
				}
			}
			return loadDone != nil
		}
		switch f.kind {
		case kindPing:
			_ = s.c.send(kindPong, pong{AgentNanos: time.Now().UnixNano()})
		case kindJob:
			var j job
			if err := json.Unmarshal(f.body, &j); err != nil {
				_ = s.c.send(kindReady, ready{Error: "bad job: " + err.Error()})
				continue
			}
			_ = s.c.send(kindReady, s.prepare(&j))
		case kindStart:
			var st start
			if err := json.Unmarshal(f.body, &st); err != nil || s.plan == nil || loadDone != nil {
				_ = s.c.send(kindDone, done{Error: "start without a test, or twice"})
				continue
			}
			loadDone = make(chan struct{})
			go func() {
				defer close(loadDone)
				s.load(ctx, time.Unix(0, st.AtNanos))
			}()
		case kindStop:
			var st stop
			_ = json.Unmarshal(f.body, &st)
			fmt.Fprintf(s.cfg.Out, "agent: the coordinator stops the load: %s\n", st.Reason)
			cancel(fmt.Errorf("stopped by the coordinator: %s", st.Reason))
		case kindBeat:
		default:
			fmt.Fprintf(s.cfg.Out, "agent: unexpected %q frame: hanging up\n", f.kind)
			return loadDone != nil
		}
	}
}

// stoppedWhy says why the agent itself stopped, e.g. "agent stopped: terminated".
func (s *session) stoppedWhy() string {
	return "agent stopped: " + context.Cause(s.own).Error()
}

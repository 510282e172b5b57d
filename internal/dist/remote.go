package dist

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// connectWait bounds connecting to an agent and its answers before the run.
const connectWait = 10 * time.Second

// remote is the coordinator's connection to one agent.
type remote struct {
	name, addr  string
	seg         plan.Segment
	nc          net.Conn
	c           *conn
	who         welcome
	offset, rtt time.Duration // the agent's clock minus ours; the probe's round trip
}

// dialAgent connects to the agent at addr and presents the token.
func dialAgent(ctx context.Context, cfg *Config, name, addr string) (*remote, error) {
	ctx, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	dial := cfg.Dial
	if dial == nil {
		d := &net.Dialer{}
		dial = func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }
	}
	nc, err := dial(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", name, addr, err)
	}
	if cfg.TLS != nil {
		tc := cfg.TLS.Clone()
		if tc.ServerName == "" {
			host, _, _ := net.SplitHostPort(addr)
			tc.ServerName = host
		}
		t := tls.Client(nc, tc)
		if err := t.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, fmt.Errorf("%s (%s): TLS: %w", name, addr, err)
		}
		nc = t
	}
	r := &remote{name: name, addr: addr, nc: nc, c: newConn(nc)}
	r.c.limit = maxWelcome
	stopOnCancel := context.AfterFunc(ctx, func() { _ = nc.SetDeadline(time.Now()) })
	defer stopOnCancel()
	own := cfg.buildOf()
	if err := r.c.send(kindHello, hello{Token: cfg.Token, Build: own}); err != nil {
		nc.Close()
		return nil, fmt.Errorf("%s (%s): %w", name, addr, err)
	}
	if err := r.c.expect(kindWelcome, &r.who); err != nil {
		nc.Close()
		return nil, fmt.Errorf("%s (%s): %w", name, addr, err)
	}
	// An agent now, but its frames stay small (pongs, its ready) until
	// give sets the bounds of its run's frames.
	if !own.sameAs(r.who.Build) { // an agent of a build that does not compare them says welcome to anyone with the token
		nc.Close()
		return nil, fmt.Errorf("%s (%s): %s", name, addr, mismatch(r.who.Build, own))
	}
	if err := r.measureClock(ctx); err != nil {
		nc.Close()
		return nil, fmt.Errorf("%s (%s): clock: %w", name, addr, err)
	}
	return r, nil
}

// clockProbes is how many pings measure an agent's clock; the one with the
// shortest round trip is kept, as NTP does, since its midpoint is the surest.
const clockProbes = 8

// measureClock sets the agent's clock offset: its clock when it answered,
// minus the midpoint of our send and receive.
func (r *remote) measureClock(ctx context.Context) error {
	best := time.Duration(-1)
	for range clockProbes {
		sent := time.Now()
		if err := r.c.send(kindPing, nil); err != nil {
			return err
		}
		var p pong
		if err := r.c.expect(kindPong, &p); err != nil {
			return err
		}
		got := time.Now()
		rtt := got.Sub(sent)
		if best < 0 || rtt < best {
			best = rtt
			mid := sent.Add(rtt / 2)
			r.offset, r.rtt = time.Unix(0, p.AgentNanos).Sub(mid), rtt
		}
	}
	return ctx.Err()
}

// give sends the agent its job and waits until it has parsed the test into
// the coordinator's layout.
func (r *remote) give(ctx context.Context, j job, p *plan.Plan) error {
	_ = r.nc.SetDeadline(time.Now().Add(connectWait))
	defer r.nc.SetDeadline(time.Time{})
	if err := r.c.send(kindJob, j); err != nil {
		return fmt.Errorf("%s (%s): %w", r.name, r.addr, err)
	}
	var rd ready
	if err := r.c.expect(kindReady, &rd); err != nil {
		return fmt.Errorf("%s (%s): %w", r.name, r.addr, err)
	}
	if rd.Error != "" {
		return fmt.Errorf("%s (%s) rejected the test: %s", r.name, r.addr, rd.Error)
	}
	l := p.Layout
	if rd.Endpoints != len(l.Endpoints) || rd.Scenarios != len(l.Scenarios) || rd.Checks != len(l.Checks) {
		return fmt.Errorf("%s (%s) read the test into %d endpoints, %d scenarios and %d checks; the coordinator into %d, %d and %d",
			r.name, r.addr, rd.Endpoints, rd.Scenarios, rd.Checks, len(l.Endpoints), len(l.Scenarios), len(l.Checks))
	}
	r.c.limitOf = agentLimits(l)
	return ctx.Err()
}

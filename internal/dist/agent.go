package dist

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/plan"
)

// AgentConfig is what an agent needs.
type AgentConfig struct {
	Listen   string       // host:port to listen on
	Listener net.Listener // listens instead of Listen when set (tests)
	Token    string       // the shared secret a coordinator must present; never empty
	// TLS is the server side of TLS; nil serves plain TCP. Mutual TLS is
	// its ClientAuth (see ServerTLS).
	TLS     *tls.Config
	Index   string    // LOADLENS_AGENT_INDEX: a Job's completion index, for names only
	Once    bool      // exit after one run (a Kubernetes Job's pod)
	Out     io.Writer // what it accepts, and each coordinator it serves
	Version string
	// Machine checks a segment's load against this machine; nil checks nothing.
	Machine func(seg plan.Segment) plan.Machine
	// Silence is how long the agent runs without a frame from its
	// coordinator before it stops the load; 0 means DefaultSilence.
	Silence time.Duration

	helloWait time.Duration // helloWait's value, shortened by tests
	build     Build         // ThisBuild(Version) unless a test set it
}

// DefaultSilence is how long an agent goes on without hearing from its
// coordinator: beats come every second, so five missed mean it is gone.
const DefaultSilence = 5 * time.Second

// beatEvery is how often each side says it is alive.
const beatEvery = time.Second

// helloWait bounds how long a connection may take to present its token
// (a TLS handshake included): a coordinator sends it as soon as it connects.
const helloWait = 5 * time.Second

// maxUnauthenticated bounds the connections waiting to present the token;
// one more closes the one that has waited longest (see waiting).
const maxUnauthenticated = 64

// idleWait bounds a coordinator's silence before the load starts, while it
// connects to its other agents (connectWait each, in parallel) and opens the run.
const idleWait = 60 * time.Second

// Serve listens and serves coordinators, one run at a time, until ctx ends
// (or, with Once, after one run). A connection must present the token first,
// within helloWait and in a small frame; only then may it find the agent
// busy: a second coordinator while one runs is refused as busy, and a
// stranger never holds the agent.
func Serve(ctx context.Context, cfg AgentConfig) error {
	if cfg.Token == "" {
		return errors.New("agent: a token is required (--token-file): an agent never runs a test from just anyone")
	}
	if cfg.build == (Build{}) {
		cfg.build = ThisBuild(cfg.Version)
	}
	ln := cfg.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", cfg.Listen); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
	}
	if cfg.TLS != nil {
		ln = tls.NewListener(ln, cfg.TLS)
	}
	defer ln.Close()
	fmt.Fprintf(cfg.Out, "agent: listening on %s; accepts only a coordinator presenting the token%s\n", ln.Addr(), acceptsTLS(cfg.TLS))
	stopAccept := context.AfterFunc(ctx, func() { ln.Close() })
	defer stopAccept()

	var busy sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	strangers := &waiting{max: maxUnauthenticated}
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("agent: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer nc.Close()
			strangers.enter(nc)
			ok := authenticate(&cfg, nc)
			strangers.leave(nc)
			if !ok {
				return
			}
			if !busy.TryLock() { // only now: a connection without the token never holds the agent
				fmt.Fprintf(cfg.Out, "agent: refused %s: busy with another coordinator's run\n", nc.RemoteAddr())
				refuse(nc, "busy with another coordinator's run")
				return
			}
			defer busy.Unlock()
			if s := accept(&cfg, nc); s != nil && s.serve(ctx) && cfg.Once {
				ln.Close() // Accept returns, and Serve with it
			}
		}()
	}
}

// acceptsTLS says what the listener requires besides the token.
func acceptsTLS(c *tls.Config) string {
	switch {
	case c == nil:
		return ", over plain TCP (no TLS)"
	case c.ClientAuth == tls.RequireAndVerifyClientCert:
		return ", over mutual TLS (a client certificate signed by the given CA is required)"
	}
	return ", over TLS"
}

// refuse tells a connection why it is turned away.
func refuse(nc net.Conn, why string) {
	_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
	if b, err := encodeFrame(kindRefused, refused{Error: why}); err == nil {
		_, _ = nc.Write(b)
	}
}

// welcomeOf is who this agent is.
func welcomeOf(cfg *AgentConfig) welcome {
	host, _ := os.Hostname()
	n := runtime.GOMAXPROCS(0)
	return welcome{Host: host, CPUs: n, Cores: app.NewOwnQuota().Capacity(float64(n)), Index: cfg.Index, Build: cfg.build}
}

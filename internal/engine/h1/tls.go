package h1

import (
	"context"
	"crypto/tls"
	"net"
	"time"
)

// Config is how a Client connects.
type Config struct {
	Dialer *net.Dialer
	// TLS is the base of every https connection's configuration (roots,
	// InsecureSkipVerify, versions); nil means crypto/tls's defaults. The
	// client sets ServerName to the URL's host and NextProtos to http/1.1
	// only, so a server that speaks both never chooses HTTP/2. Unless TLS
	// sets a ClientSessionCache, the client keeps its own, so a VU resumes
	// the sessions it made itself, as one browser does.
	TLS *tls.Config
	// HandshakeTimeout bounds one TLS handshake; 0: only the request's
	// timeout does.
	HandshakeTimeout time.Duration
	// Dial, when set, dials instead of Dialer: benchmarks answer in memory.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// IdleCloses, when set, is shared with the run's other clients; nil:
	// the client keeps its own.
	IdleCloses *IdleCloses
	// Inline dials and handshakes on the caller's goroutine instead of
	// aside: for a caller whose goroutine ends after the exchange (a VU
	// that parks in its think time), so the stack they grow goes with it
	// and no second goroutine, 8 KiB of stack, waits beside it.
	Inline bool
}

// sessionCacheSize is how many TLS sessions a Client keeps: one per host
// it talks to, and a VU talks to one or a few.
const sessionCacheSize = 8

// HandshakeError is a failed TLS handshake: a certificate that does not
// verify, an alert, a server that is not TLS, a timeout or a close during
// the handshake. Its message is the underlying error's.
type HandshakeError struct{ Err error }

func (e *HandshakeError) Error() string { return e.Err.Error() }
func (e *HandshakeError) Unwrap() error { return e.Err }

// http11 is the one protocol this client offers by ALPN.
var http11 = []string{"http/1.1"}

// TLSConfigs keeps a client's TLS configuration for its last host, and the
// sessions it made itself unless Base has a cache, as one browser does: a
// redial of the same host allocates no new configuration.
type TLSConfigs struct {
	Base     *tls.Config // the run's settings; nil: the defaults
	Protos   []string    // the ALPN protocols offered
	last     *tls.Config
	sessions tls.ClientSessionCache
}

// For returns the configuration of a connection to serverName.
func (t *TLSConfigs) For(serverName string) *tls.Config {
	if t.last != nil && t.last.ServerName == serverName {
		return t.last
	}
	var cfg *tls.Config
	if t.Base != nil {
		cfg = t.Base.Clone()
	} else {
		cfg = &tls.Config{}
	}
	cfg.ServerName = serverName
	cfg.NextProtos = t.Protos
	if cfg.ClientSessionCache == nil {
		if t.sessions == nil {
			t.sessions = tls.NewLRUClientSessionCache(sessionCacheSize)
		}
		cfg.ClientSessionCache = t.sessions
	}
	t.last = cfg
	return cfg
}

// handshake runs cn's TLS handshake within the handshake timeout and the
// request's deadline. Abort ends it at once: cn is published as the active
// connection while it runs.
func (c *Client) handshake(cn *conn, deadline time.Time, resp *Response) error {
	end := deadline
	if c.cfg.HandshakeTimeout > 0 {
		if hs := time.Now().Add(c.cfg.HandshakeTimeout); end.IsZero() || hs.Before(end) {
			end = hs
		}
	}
	// The deadline is set before cn is published to Abort, so Abort's past
	// deadline is never overwritten by this one.
	if err := cn.wire.SetDeadline(end); err != nil {
		return err
	}
	c.g.Use(cn)
	defer c.g.Use(nil)
	if c.g.Aborted() {
		return ErrAborted
	}
	start := time.Now()
	var err error
	if c.cfg.Inline {
		err = cn.tc.Handshake()
	} else {
		err = aside(cn.tc.Handshake)
	}
	resp.TLS = time.Since(start)
	if err != nil {
		resp.Sent, resp.Received = cn.wire.written, cn.wire.read
		return &HandshakeError{Err: err}
	}
	return nil
}

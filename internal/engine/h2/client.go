package h2

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/engine/abort"
	"github.com/loadlens/loadlens/internal/engine/h1"
)

// Config is how a Client connects; its fields mean what h1.Config's do.
type Config struct {
	Dialer *net.Dialer
	// TLS is the base of every https connection's configuration; the
	// client sets ServerName, and NextProtos to h2 and http/1.1.
	TLS              *tls.Config
	HandshakeTimeout time.Duration
	Dial             func(ctx context.Context, network, addr string) (net.Conn, error)
	// Inline dials and handshakes on the caller's goroutine (h1.Config.Inline).
	Inline bool
	// NoContentLength leaves content-length out of requests, as gRPC's
	// clients do (their length is in each message's prefix).
	NoContentLength bool
}

// Client sends requests over HTTP/2 connections, one per host and one
// stream at a time. It is owned by one VU; see the package comment.
type Client struct {
	cfg        Config
	dial       func(ctx context.Context, network, addr string) (net.Conn, error)
	tlsConfs   h1.TLSConfigs // the last host's configuration and this client's sessions
	conns      []*conn
	g          abort.Guard[conn, *conn] // Abort's state; its mutex guards conns against Close
	clk        h1.Clock
	st         stream // the request in flight's
	hdr        []byte // the last response's header fields, "name: value\r\n" lines
	body       []byte // the last response's body, when kept
	fields     fieldCache
	pathBuf    []byte
	key        []byte     // the request's sameBlock key
	stable     []byte     // the request's header lines but its volatile ones
	vol        []volField // its volatile fields (traceparent, grpc-timeout), in Request.Header
	trl        []byte     // the last response's trailer fields, "name: value\r\n" lines
	trlSeen    bool       // its stream ended with a trailer block
	headOnly   bool       // its header block ended the stream (gRPC's Trailers-Only)
	sameBlocks int        // header blocks sent again as they were (sameBlock), for tests
	retried    int        // requests sent again because the server did not process them, for tests
	waited     int        // requests written inside the wait for their answer (conn.send), for tests
}

// New returns a client configured by cfg.
func New(cfg Config) *Client {
	c := &Client{cfg: cfg, dial: cfg.Dial, tlsConfs: h1.TLSConfigs{Base: cfg.TLS, Protos: alpn}}
	if c.dial == nil {
		d := cfg.Dialer
		if d == nil {
			d = &net.Dialer{}
		}
		c.dial = d.DialContext
	}
	return c
}

// Abort makes an in-flight Do return h1.ErrAborted, and every later one
// too. It may be called from any goroutine.
func (c *Client) Abort() { c.g.Abort() }

// Close closes the client's connections.
func (c *Client) Close() {
	c.g.Lock()
	defer c.g.Unlock()
	for _, cn := range c.conns {
		cn.close()
	}
	c.conns = nil
}

// Trailers returns the last response's trailer fields, "name: value\r\n"
// lines, and how its stream ended: with a trailer block (seen), or with
// its header block (headOnly: gRPC's Trailers-Only, whose fields are the
// Response's Header). Valid until the next Do.
func (c *Client) Trailers() (fields []byte, seen, headOnly bool) {
	return c.trl, c.trlSeen, c.headOnly
}

// maxAttempts bounds how often a request the server did not process is
// sent: once, and once more on a new connection.
const maxAttempts = 2

// Do sends req and reads the response into resp, as h1.Client.Do does.
// resp is filled as far as the exchange got, also when Do fails.
func (c *Client) Do(req *h1.Request, resp *h1.Response) error {
	*resp = h1.Response{}
	u, err := splitURL(req.URL)
	if err != nil {
		return err
	}
	if req.Host != nil {
		u.authority = req.Host
	}
	deadline := req.Deadline
	if deadline.IsZero() && req.Timeout > 0 {
		deadline = time.Now().Add(req.Timeout)
	}
	for attempt := 1; ; {
		cn, err := c.conn(u, deadline, req.OnDial, resp)
		if err != nil {
			return c.abortErr(err)
		}
		err = c.exchange(cn, req, resp, &u, deadline)
		cn.account(resp)
		if err == nil {
			if !cn.usable() {
				c.drop(cn)
			}
			return nil
		}
		kept := errors.As(err, new(*StreamError)) || errors.As(err, new(cutStream))
		if !cn.usable() || !kept || errors.Is(err, errUnprocessed) || err == errStale {
			c.drop(cn) // a refused stream too: the request goes out again on a new connection
		}
		if err == errStale { // nothing went out: the next connection is new, and never stale
			*resp = h1.Response{}
			continue
		}
		if cut, ok := err.(cutStream); ok {
			err = cut.error // the timeout itself, as before the connection was kept
		}
		if errors.Is(err, errUnprocessed) && attempt < maxAttempts && !c.g.Aborted() {
			attempt++
			c.retried++
			*resp = h1.Response{}
			continue
		}
		return c.abortErr(err)
	}
}

// abortErr says ErrAborted for whatever an aborted request's read returned,
// and io.ErrUnexpectedEOF for a connection closed mid-exchange, as h1 does.
func (c *Client) abortErr(err error) error {
	if c.g.Aborted() {
		return h1.ErrAborted
	}
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// drop closes and forgets a connection.
func (c *Client) drop(cn *conn) {
	cn.close()
	c.g.Lock()
	defer c.g.Unlock()
	for i, x := range c.conns {
		if x == cn {
			c.conns = append(c.conns[:i], c.conns[i+1:]...)
			break
		}
	}
}

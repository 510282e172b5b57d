package h1

import "syscall"

// IdleCheck is the idle check for another client of this package's kind
// (the lean HTTP/2 one): a non-blocking look at a kept-alive socket for
// the server's close, and the wait for the reset that proves a request
// met that close unread. The zero value checks nothing.
type IdleCheck struct{ ic idleCheck }

// Init watches sc, the TCP socket (under TLS, if any).
func (c *IdleCheck) Init(sc syscall.Conn) { c.ic.init(sc) }

// Closed reports whether the peer closed or reset the idle socket.
func (c *IdleCheck) Closed() bool { return c.ic.closed() }

// ClosedFirst reports whether a request whose connection was found closed
// before any byte of its answer was refused by a socket the server had
// closed before it came (its close, then a reset within ResetWait): the
// server's application never read it, and an idempotent request may go out
// again. The wait ends at the first socket error.
func (c *IdleCheck) ClosedFirst() bool {
	_, afterClose := c.ic.resetWithin(resetWait)
	return afterClose
}

// Idempotent reports methods that may be sent again when the target did
// not read them.
func Idempotent(method string) bool { return idempotent(method) }

// IsClosed reports an error that says the connection was closed or reset.
func IsClosed(err error) bool { return isClosed(err) }

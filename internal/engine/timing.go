package engine

import (
	"context"
	"errors"
	"net"
	"syscall"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/units"
)

// failure names a transport error: its kind, and a message that says which
// timeout fired when one did. The request timeout covers the whole request
// (redirects included) and ends at deadline; the connect and TLS handshake
// timeouts cover one dial each. A handshake that does not finish, within
// either timeout, is a TLS failure: the target's TLS is what did not answer.
// A failure after the response head says so, with the bytes received.
func (e *Engine) failure(err error, ph phase, deadline time.Time, timeout time.Duration, moved bytesMoved) (sample.Kind, string) {
	var dnsErr *net.DNSError
	var netErr net.Error
	timedOut := errors.As(err, &netErr) && netErr.Timeout()
	switch {
	// the clients return context.DeadlineExceeded itself for the request
	// timeout; errors.Is would also match a dial's own timeout
	case err == context.DeadlineExceeded, timedOut && !time.Now().Before(deadline): //nolint:errorlint // see above
		if ph == phaseTLS {
			return sample.TLS, "TLS handshake unfinished at the request timeout (" + timeout.String() + ")"
		}
		return sample.Timeout, "request timeout (" + timeout.String() + ") " + phaseWords(ph, moved)
	case timedOut && ph == phaseTLS:
		return sample.TLS, "TLS handshake timeout (" + e.tlsTimeout.String() + ")"
	case errors.As(err, &dnsErr):
		return sample.DNS, shortMessage(err)
	case timedOut && ph == phaseConnect:
		return sample.Timeout, "connect timeout (" + e.dialer.Timeout.String() + ")"
	case ph == phaseTLS:
		return sample.TLS, shortMessage(err)
	}
	k, msg := classify(err)
	if (ph == phaseBody || ph == phaseWrite) && k == sample.ConnReset {
		how := "closed"
		if errors.Is(err, syscall.ECONNRESET) {
			how = "reset"
		}
		return k, "connection " + how + " " + phaseWords(ph, moved) // the error's own text adds only addresses
	}
	return k, msg
}

// bytesMoved is what a failed request carried: its bytes written and read
// (its head and body, redirects' included) and the size of its body.
type bytesMoved struct{ sent, received, body int64 }

func phaseWords(ph phase, moved bytesMoved) string {
	switch ph {
	case phaseConnect:
		return "while connecting"
	case phaseTLS:
		return "in the TLS handshake"
	case phaseBody:
		return "reading the body (" + units.Bytes(moved.received) + " of the response, its head included)" // the head alone can be all that came
	case phaseWrite: // the target stopped reading: what it did not take fills the sockets' buffers, then writes stall
		if moved.body == 0 {
			return "writing the request: the server stopped reading it, " + units.Bytes(moved.sent) + " written"
		}
		return "writing the request body: the server stopped reading it, " + units.Bytes(moved.sent) + " of a " +
			units.Bytes(moved.body) + " body written (the head included)"
	}
	return "waiting for the response"
}

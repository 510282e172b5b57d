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
func (e *Engine) failure(err error, ph phase, deadline time.Time, timeout time.Duration, received int64) (sample.Kind, string) {
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
		return sample.Timeout, "request timeout (" + timeout.String() + ") " + phaseWords(ph, received)
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
	if ph == phaseBody && k == sample.ConnReset {
		how := "closed"
		if errors.Is(err, syscall.ECONNRESET) {
			how = "reset"
		}
		return k, "connection " + how + " " + phaseWords(ph, received) // the error's own text adds only addresses
	}
	return k, msg
}

func phaseWords(ph phase, received int64) string {
	switch ph {
	case phaseConnect:
		return "while connecting"
	case phaseTLS:
		return "in the TLS handshake"
	case phaseBody:
		return "reading the body (" + units.Bytes(received) + " of the response, its head included)" // the head alone can be all that came
	}
	return "waiting for the response"
}

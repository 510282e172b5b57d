package engine

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// failure names a transport error: its kind, and a message that says which
// timeout fired when one did. The request timeout covers the whole request
// (redirects included) and ends at deadline; the connect and TLS handshake
// timeouts cover one dial each. A handshake that does not finish, within
// either timeout, is a TLS failure: the target's TLS is what did not answer.
func (e *Engine) failure(err error, ph phase, deadline time.Time, timeout time.Duration) (sample.Kind, string) {
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
		return sample.Timeout, "request timeout (" + timeout.String() + ") " + phaseWords(ph)
	case timedOut && ph == phaseTLS:
		return sample.TLS, "TLS handshake timeout (" + e.tlsTimeout.String() + ")"
	case errors.As(err, &dnsErr):
		return sample.DNS, shortMessage(err)
	case timedOut && ph == phaseConnect:
		return sample.Timeout, "connect timeout (" + e.dialer.Timeout.String() + ")"
	case ph == phaseTLS:
		return sample.TLS, shortMessage(err)
	}
	return classify(err)
}

func phaseWords(ph phase) string {
	switch ph {
	case phaseConnect:
		return "while connecting"
	case phaseTLS:
		return "in the TLS handshake"
	}
	return "waiting for the response"
}

package engine

import (
	"errors"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/plan"
)

// errNotSent wraps what stopped a request before any byte of it was
// written and before any dial: it is no request, so it is recorded as the
// iteration's end (sample.Sink's NotSent), never in http_reqs. A DNS
// failure, a refused connection or a failed write are the target's (or
// the network's) answer, and stay requests (docs/accounting.md).
type errNotSent struct{ err error }

// errNoHost is a URL without a host, as net/http finds it.
var errNoHost = errors.New("the URL has no host")

func (e errNotSent) Error() string { return e.err.Error() }
func (e errNotSent) Unwrap() error { return e.err }

// buildError reports whether err, from a request's first hop, says the
// request could not be built: its scheme, its URL as the client parses it.
// On a redirect's hop the same errors are the redirect's, the first
// request having been sent.
func buildError(err error) bool {
	var ne errNotSent
	return errors.As(err, &ne) || errors.Is(err, errScheme) || errors.Is(err, h1.ErrBadURL) || errors.Is(err, h1.ErrURLCredentials)
}

// notSentReason is what the summary says of a request not sent: the step,
// as written, and why, so the value a data file or an extraction filled in
// can be found.
func notSentReason(r *plan.Request, err error) string {
	var ne errNotSent
	if errors.As(err, &ne) {
		err = ne.err
	}
	msg := err.Error()
	if len(msg) >= len("not sent: ") && msg[:len("not sent: ")] == "not sent: " {
		return msg // unsendable's message names the step already
	}
	return "not sent: " + r.Method + " " + r.URL.String() + ": " + msg
}

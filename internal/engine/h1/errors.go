package h1

import (
	"errors"
	"fmt"
)

// Errors Do returns besides network errors. Network errors keep their net
// types, so callers can classify them: a timeout satisfies net.Error's
// Timeout, a reset wraps syscall.ECONNRESET, and a connection closed before
// the response was complete is io.ErrUnexpectedEOF.
var (
	// ErrAborted is returned once Abort was called.
	ErrAborted = errors.New("request aborted")
	// ErrBadURL is returned for a URL the client cannot send.
	ErrBadURL = errors.New("invalid URL for HTTP/1.1 (want http://host[:port]/path or https://...)")
	// ErrURLCredentials is returned for a URL whose host is preceded by
	// user:password@ once rendered: a test's constant credentials become an
	// Authorization header when it is parsed, and templated ones cannot.
	// The message never quotes them.
	ErrURLCredentials = errors.New("the URL has credentials (user:password@) from a template: write them in the URL itself, or send an Authorization header")
	// ErrMalformed is wrapped by every protocol violation in a response
	// (a bad status line, header field, framing or chunk), with the detail.
	ErrMalformed = errors.New("malformed HTTP response")
	// ErrHTTP2Cleartext is returned when a plain-http server answered
	// HTTP/2 frames (h2c, prior knowledge only: nginx's `listen … http2`
	// without ssl); it used to read as "unexpected EOF".
	// Under 200 bytes, which engine.shortMessage keeps.
	ErrHTTP2Cleartext = errors.New("the server answered HTTP/2 without TLS (h2c), which loadlens does not speak: " +
		"serve HTTP/1.1 on this port (nginx: listen without http2) or use https:// with http2: true")
	// ErrHeaderTooBig is returned when a response head exceeds 64 KiB.
	ErrHeaderTooBig = errors.New("response header larger than 64 KiB")

	errUnread      = errors.New("kept-alive connection closed before the target read the request") // sent again on a new connection
	errBadOverride = errors.New("h1: the Host or User-Agent override contains a control character")
)

// malformed wraps ErrMalformed with what was wrong; it allocates, which is
// fine on a path that ends the request.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
}

// quote shows at most 40 bytes of b in an error, so a huge bad line does
// not make a huge message.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return fmt.Sprintf("%q...", b[:max])
	}
	return fmt.Sprintf("%q", b)
}

// errWouldBlock is what the idle check's non-blocking read returns when the
// socket is empty. crypto/tls keeps a connection usable after an error
// whose Temporary method says true, as after a read deadline.
var errWouldBlock error = wouldBlock{}

type wouldBlock struct{}

func (wouldBlock) Error() string   { return "h1: nothing to read on the idle connection" }
func (wouldBlock) Timeout() bool   { return false }
func (wouldBlock) Temporary() bool { return true }

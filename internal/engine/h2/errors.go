package h2

import (
	"errors"
	"fmt"
	"io"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
)

var (
	// ErrNoHTTP2 is returned when an https server's ALPN did not choose
	// h2; nothing was written, and the connection is closed.
	ErrNoHTTP2 = errors.New("the server did not choose HTTP/2 (ALPN h2)")
	// errUnprocessed marks a failure the server says it never processed
	// (GOAWAY below the stream, REFUSED_STREAM): Do sends the request again.
	errUnprocessed = errors.New("the server did not process the request")
	// errStale says a reused connection was found closed while idle:
	// nothing was sent, and Do sends the request on a new one, uncounted.
	errStale = errors.New("the server closed the idle HTTP/2 connection")
	// errHeaderTooBig is h1's error for a response head past the bound.
	errHeaderTooBig = fmt.Errorf("%w (HTTP/2 header list)", h1.ErrHeaderTooBig)
)

// StreamError is the server's RST_STREAM of the request's stream.
type StreamError struct{ Code http2.ErrCode }

func (e *StreamError) Error() string {
	return "the server reset the HTTP/2 stream (RST_STREAM " + e.Code.String() + ")"
}

// Is makes a refused stream an unprocessed request.
func (e *StreamError) Is(target error) bool {
	return target == errUnprocessed && e.Code == http2.ErrCodeRefusedStream
}

// GoAwayError is the server's GOAWAY for a stream it did not process, or a
// connection closed after a GOAWAY; a close wraps io.ErrUnexpectedEOF, as
// h1's close before the response's end.
type GoAwayError struct {
	LastStreamID uint32
	Code         http2.ErrCode
	Debug        string // the first 64 bytes of its debug data
	closed       bool   // the connection closed after it, mid-response
}

func (e *GoAwayError) Error() string {
	msg := "the server sent GOAWAY (" + e.Code.String()
	if e.Debug != "" {
		msg += ": " + e.Debug
	}
	if e.closed {
		return msg + ") and closed the connection before the response's end"
	}
	return fmt.Sprintf("%s) before processing the request (last stream %d)", msg, e.LastStreamID)
}

// Is makes a GOAWAY below the stream an unprocessed request.
func (e *GoAwayError) Is(target error) bool {
	return target == errUnprocessed && !e.closed
}

// Unwrap makes a close after GOAWAY read as h1's unexpected close.
func (e *GoAwayError) Unwrap() error {
	if e.closed {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// unsent is a request whose write failed on a reused connection: the
// server cannot have read it whole, so Do sends it again, as h1 does.
type unsent struct{ error }

func (e unsent) Unwrap() error { return e.error }

// Is makes it an unprocessed request.
func (e unsent) Is(target error) bool { return target == errUnprocessed }

// unread is a request whose reused connection the server had closed
// before it arrived (see Client.neverRead): Do sends it again.
type unread struct{ error }

func (e unread) Unwrap() error { return e.error }

// Is makes it an unprocessed request.
func (e unread) Is(target error) bool { return target == errUnprocessed }

// malformed wraps h1.ErrMalformed with what was wrong.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: HTTP/2: "+format, append([]any{h1.ErrMalformed}, args...)...)
}

// readErr turns a Framer's read error into the client's: a header list
// past the bound (the Framer's protocol error with the HEADERS frame it
// was reading, and no invalid field) is h1's ErrHeaderTooBig, another
// protocol violation is malformed, a closed connection unexpected.
func readErr(fr *http2.Framer, f http2.Frame, err error) error {
	var ce http2.ConnectionError
	if errors.As(err, &ce) {
		_, headers := f.(*http2.MetaHeadersFrame)
		if detail := fr.ErrorDetail(); detail != nil {
			return malformed("%s: %v", http2.ErrCode(ce), detail)
		}
		if headers && http2.ErrCode(ce) == http2.ErrCodeProtocol {
			return errHeaderTooBig
		}
		if headers && http2.ErrCode(ce) == http2.ErrCodeCompression { // the decoder's bound on one field is the list's
			return malformed("HPACK: a header field over %d KiB, or a bad encoding", maxHeaderList>>10)
		}
		return malformed("%s", http2.ErrCode(ce))
	}
	var se http2.StreamError
	if errors.As(err, &se) {
		return malformed("%v", se)
	}
	if errors.Is(err, http2.ErrFrameTooLarge) {
		return malformed("a frame larger than the maximum frame size")
	}
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// splitURL's result: where to dial, what to ask for.
type target struct {
	dial      string // host:port
	authority []byte // :authority
	path      []byte // :path
	secure    bool
}

// splitURL parses an absolute http:// or https:// URL without allocating
// more than its dial address.
func splitURL(u []byte) (target, error) {
	var t target
	var rest []byte
	switch {
	case len(u) > 7 && string(u[:7]) == "http://":
		rest = u[7:]
	case len(u) > 8 && string(u[:8]) == "https://":
		rest, t.secure = u[8:], true
	default:
		return t, h1.ErrBadURL
	}
	end := len(rest)
	for i, c := range rest {
		if c == '/' || c == '?' {
			end = i
			break
		}
	}
	t.authority, t.path = rest[:end], rest[end:]
	if len(t.authority) == 0 {
		return t, h1.ErrBadURL
	}
	for _, c := range t.authority {
		if c == '@' {
			return t, h1.ErrURLCredentials
		}
	}
	for _, c := range u {
		if c <= ' ' || c == 0x7f {
			return t, h1.ErrBadURL
		}
	}
	t.dial = string(t.authority)
	if !h1.HasPort(t.authority) {
		if t.secure {
			t.dial += ":443"
		} else {
			t.dial += ":80"
		}
	}
	return t, nil
}

package h1

import (
	"bytes"
	"net"
	"strings"
	"time"
)

// Request is one HTTP/1.1 request to send.
type Request struct {
	Method string
	URL    []byte // absolute http:// or https:// URL
	// Header holds extra header lines, each "Name: value\r\n". It must not
	// hold Host, User-Agent, Content-Length or Transfer-Encoding: the client
	// writes those from the fields below.
	Header   []byte
	Body     []byte // sent with a Content-Length; nil for none
	KeepBody bool   // keep the response body in Response.Body instead of discarding it
	// MaxBody caps the body kept with KeepBody; bytes past it are read and
	// discarded, and Response.Truncated says so. 0 keeps the whole body.
	MaxBody int64
	// KeepError, without KeepBody, keeps up to this many bytes of the body
	// of a response with a status of 400 or more (what the server said went
	// wrong) in Response.Body, Truncated saying it went on; 0 keeps none.
	KeepError int64
	Host      []byte        // the Host header's value; nil: the URL's host
	UserAgent []byte        // the User-Agent header's value; nil: "loadlens"
	Timeout   time.Duration // for the whole exchange, connect included
	// Deadline, when set, ends the exchange instead of Timeout: a caller
	// that has just read the Clock passes its deadline, sparing Do a read.
	Deadline time.Time
	// Start, when set, is that Clock reading. A kept-alive connection whose
	// last response was read less than freshIdle before it is reused for an
	// idempotent request without the idle check (see Client.Do).
	Start time.Time
	// OnWritten, when set, is called on Do's goroutine each time the
	// request has been written (again if it is sent again), before the
	// response is waited for: the caller learns that its dial and write are
	// over. It may run inside the socket's wait, so it must not block.
	OnWritten func()
	// OnDial, when set, is called on Do's goroutine as a dial for the
	// request starts; what it returns, when not nil, is called with the
	// connection once dialled, before its TLS handshake (not when the dial
	// fails). Over https that connection is the one TLS reads from, whose
	// ReadState tells its socket reads and NetConn the socket.
	OnDial func() (dialled func(net.Conn))
}

// Response is what came back. Its slices are valid until the next Do.
type Response struct {
	Status     int
	StatusText []byte // the reason phrase, e.g. "Not Found"
	// Header holds the final response's header fields as net/textproto
	// reads them, one "Name: value\r\n" line each: folded lines joined with
	// a space, the value's surrounding blanks trimmed. Read it with
	// HeaderValues.
	Header []byte
	// SetCookie and Location say whether Header has such a field, noted
	// while parsing so that a caller need not scan Header on every response.
	SetCookie, Location bool
	Body                []byte // the body when Request.KeepBody was set, or an error's start (KeepError)
	Truncated           bool   // the body was longer than Request.MaxBody (or KeepError): Body holds its start
	// Sent counts the bytes written for this exchange. Over https it is
	// what the socket carried: TLS records, and the handshake when this
	// exchange opened the connection.
	Sent int64
	// Received counts the bytes of this exchange as framed on the wire:
	// interim (1xx) responses, the status line, headers and body. After an
	// error it counts every byte read for the exchange. Over https it is
	// what the socket carried: TLS records, the handshake when this
	// exchange opened the connection, and what arrived on it while idle
	// (a session ticket) since the last exchange.
	Received  int64
	Connect   time.Duration // the TCP connect, when this exchange opened the connection
	TLS       time.Duration // the TLS handshake, when this exchange opened an https connection
	Wrote     time.Time     // when the request was written
	FirstByte time.Time     // when the first response byte arrived (of an interim response, if any)
	Done      time.Time     // when the response's last byte was read, after a successful Do
}

// maxHeader bounds one response head: status line and header fields.
const maxHeader = 64 << 10

// splitURL returns the host[:port] to dial, the Host header value and the
// request target of an absolute http:// or https:// URL, and whether it is
// https, without allocating.
func splitURL(u []byte) (dial, host, target []byte, secure, ok bool) {
	var rest []byte
	switch {
	case hasPrefix(u, "http://"):
		rest = u[len("http://"):]
	case hasPrefix(u, "https://"):
		rest, secure = u[len("https://"):], true
	default:
		return nil, nil, nil, false, false
	}
	end := len(rest)
	for i, c := range rest {
		if c == '/' || c == '?' {
			end = i
			break
		}
	}
	host, target = rest[:end], rest[end:]
	if len(host) == 0 || hasUserinfo(host) {
		return nil, nil, nil, false, false
	}
	for _, c := range u {
		if c <= ' ' || c == 0x7f {
			return nil, nil, nil, false, false // spaces and controls would break the request line
		}
	}
	return host, host, target, secure, true
}

// badURL is the error for a URL splitURL refused.
func badURL(u []byte) error {
	if _, rest, ok := bytes.Cut(u, []byte("://")); ok {
		if end := bytes.IndexAny(rest, "/?"); end >= 0 {
			rest = rest[:end]
		}
		if hasUserinfo(rest) {
			return ErrURLCredentials
		}
	}
	return ErrBadURL
}

// hasUserinfo reports whether an authority holds user[:password]@.
func hasUserinfo(authority []byte) bool {
	for _, c := range authority {
		if c == '@' {
			return true
		}
	}
	return false
}

func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// ServerName returns host (an authority) without its port and an IPv6
// literal's brackets, as net/http names the TLS server: the name sent as
// SNI and verified against the certificate.
func ServerName(host string) string {
	if HasPort([]byte(host)) {
		host = host[:strings.LastIndexByte(host, ':')]
	}
	if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	return host
}

// HasPort reports whether host ends in :port (and is not a bare IPv6 literal).
func HasPort(host []byte) bool {
	for i := len(host) - 1; i >= 0; i-- {
		switch host[i] {
		case ':':
			return true
		case ']':
			return false
		}
	}
	return false
}

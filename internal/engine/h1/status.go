package h1

import "bytes"

// statusLine is a parsed "HTTP/1.1 200 OK".
type statusLine struct {
	code         int
	reason       []byte
	major, minor int
}

// atLeast11 reports an HTTP version of 1.1 or later, for which
// Transfer-Encoding applies. "HTTP/0.0" counts as 1.1, as net/http's
// readTransfer takes a zero version for an unset one.
func (s *statusLine) atLeast11() bool {
	return s.major > 1 || s.major == 1 && s.minor >= 1 || s.major == 0 && s.minor == 0
}

// parseStatusLine parses a status line as net/http's ReadResponse does:
// a version, one or more spaces, a 3-digit code, an optional reason.
// Two deliberate differences, both to keep garbage from counting as a
// success: the code is three digits (net/http's Atoi takes "+20" as 20), and
// codes below 100 are rejected (RFC 9110 §15 defines none; net/http passes
// them through).
func parseStatusLine(l []byte) (statusLine, error) {
	var s statusLine
	sp := bytes.IndexByte(l, ' ')
	if sp < 0 {
		return s, malformed("status line %s", quote(l))
	}
	proto, rest := l[:sp], bytes.TrimLeft(l[sp+1:], " ")
	code := rest
	if i := bytes.IndexByte(rest, ' '); i >= 0 {
		code, s.reason = rest[:i], rest[i+1:]
	}
	if len(code) != 3 {
		return s, malformed("status code %s", quote(code))
	}
	for _, d := range code {
		if d < '0' || d > '9' {
			return s, malformed("status code %s", quote(code))
		}
		s.code = s.code*10 + int(d-'0')
	}
	if s.code < 100 {
		return s, malformed("status code %s", quote(code))
	}
	// "HTTP/X.Y" with one digit each, as net/http's ParseHTTPVersion
	if len(proto) != 8 || string(proto[:5]) != "HTTP/" || proto[6] != '.' || !isDigit(proto[5]) || !isDigit(proto[7]) {
		return s, malformed("HTTP version %s", quote(proto))
	}
	s.major, s.minor = int(proto[5]-'0'), int(proto[7]-'0')
	return s, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

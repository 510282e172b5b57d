package h1

import "bytes"

// parseHead parses a status line and returns the header lines after it
// (each ending in CRLF, the blank line excluded).
func parseHead(head []byte) (status int, reason, lines []byte, proto10 bool, err error) {
	i := bytes.Index(head, crlf)
	sl := head[:i]
	lines = head[i+2 : len(head)-2]
	// "HTTP/1.1 200 OK": a version, a 3-digit code, an optional reason
	if len(sl) < 12 || string(sl[:7]) != "HTTP/1." || sl[8] != ' ' || (len(sl) > 12 && sl[12] != ' ') {
		return 0, nil, nil, false, ErrMalformed
	}
	for _, d := range sl[9:12] {
		if d < '0' || d > '9' {
			return 0, nil, nil, false, ErrMalformed
		}
		status = status*10 + int(d-'0')
	}
	if len(sl) > 13 {
		reason = sl[13:]
	}
	return status, reason, lines, sl[7] == '0', nil
}

// bodyFraming says how a response's body ends.
type bodyFraming struct {
	length  int64 // -1 when not given
	chunked bool
	close   bool // the connection cannot be reused after this response
}

// framing reads Content-Length, Transfer-Encoding and Connection.
func framing(lines []byte, proto10 bool) bodyFraming {
	f := bodyFraming{length: -1, close: proto10}
	for it := (headerLines{rest: lines}); ; {
		name, value, ok := it.next()
		if !ok {
			break
		}
		switch {
		case equalFold(name, "content-length"):
			if n, ok := parseDecimal(value); ok {
				f.length = n
			}
		case equalFold(name, "transfer-encoding"):
			f.chunked = containsFold(value, "chunked")
		case equalFold(name, "connection"):
			if containsFold(value, "close") {
				f.close = true
			} else if containsFold(value, "keep-alive") {
				f.close = false
			}
		}
	}
	return f
}

// HeaderValues appends to dst the values of the header lines named name
// (case-insensitive), as strings.
func HeaderValues(lines []byte, name string, dst []string) []string {
	for it := (headerLines{rest: lines}); ; {
		n, v, ok := it.next()
		if !ok {
			return dst
		}
		if equalFold(n, name) {
			dst = append(dst, string(v))
		}
	}
}

// headerLines walks raw header lines without allocating.
type headerLines struct{ rest []byte }

// next returns the next header's name and value, trimmed, skipping lines
// without a colon; ok is false at the end.
func (h *headerLines) next() (name, value []byte, ok bool) {
	for len(h.rest) > 0 {
		i := bytes.Index(h.rest, crlf)
		if i < 0 {
			i = len(h.rest)
		}
		line := h.rest[:i]
		h.rest = h.rest[min(i+2, len(h.rest)):]
		if n, v, found := bytes.Cut(line, []byte{':'}); found {
			return bytes.TrimSpace(n), bytes.TrimSpace(v), true
		}
	}
	return nil, nil, false
}

func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if lower(b[i]) != lower(s[i]) {
			return false
		}
	}
	return true
}

func containsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if equalFold(b[i:i+len(s)], s) {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func parseDecimal(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, d := range b {
		if d < '0' || d > '9' {
			return 0, false
		}
		n = n*10 + int64(d-'0')
	}
	return n, true
}

// parseChunkSize reads a chunk-size line's hex size, ignoring extensions.
func parseChunkSize(l []byte) (int64, bool) {
	if i := bytes.IndexByte(l, ';'); i >= 0 {
		l = l[:i]
	}
	l = bytes.TrimSpace(l)
	if len(l) == 0 || len(l) > 15 {
		return 0, false
	}
	var n int64
	for _, d := range l {
		var v byte
		switch {
		case '0' <= d && d <= '9':
			v = d - '0'
		case 'a' <= d && d <= 'f':
			v = d - 'a' + 10
		case 'A' <= d && d <= 'F':
			v = d - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | int64(v)
	}
	return n, true
}

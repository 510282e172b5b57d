package h1

// bodyKind says how a response's body is delimited.
type bodyKind uint8

const (
	noBody   bodyKind = iota // HEAD, 1xx, 204, 304
	byLength                 // Content-Length
	byChunks                 // Transfer-Encoding: chunked
	untilEOF                 // neither: the body runs until the server closes
)

// framing decides, as net/http's readTransfer does, how the body after h
// is delimited, and whether the connection must close after it. It rejects
// what net/http rejects: a Content-Length that is empty, not a decimal
// number, negative or past 2^63-1 (even where no body follows), and on
// HTTP/1.1 a Transfer-Encoding other than one "chunked". A Content-Length
// beside chunked is ignored, as net/http ignores it. HTTP/1.0 responses
// ignore Transfer-Encoding, which that version did not have.
func (c *Client) framing(h *head, method string) (kind bodyKind, length int64, closeAfter bool, err error) {
	length = -1
	if h.clCount > 0 {
		v := trimBlank(c.hdr[h.cl[0]:h.cl[1]])
		var ok bool
		if length, ok = parseLength(v); !ok {
			return 0, 0, false, malformed("Content-Length %s is not a length", quote(v))
		}
	}
	chunked := false
	if h.teCount > 0 && h.atLeast11() {
		if h.teCount > 1 {
			return 0, 0, false, malformed("%d Transfer-Encoding fields", h.teCount)
		}
		if !h.teChunked {
			return 0, 0, false, malformed("unsupported Transfer-Encoding %s", quote(c.hdr[h.te[0]:h.te[1]]))
		}
		chunked = true
	}
	switch {
	case h.major < 1:
		closeAfter = true
	case h.major == 1 && h.minor == 0:
		closeAfter = h.connClose || !h.connKeep
	default:
		closeAfter = h.connClose
	}
	switch {
	case method == "HEAD" || h.code/100 == 1 || h.code == 204 || h.code == 304:
		return noBody, 0, closeAfter, nil
	case chunked:
		return byChunks, -1, closeAfter, nil
	case length >= 0:
		return byLength, length, closeAfter, nil
	}
	return untilEOF, -1, true, nil
}

// parseLength parses a Content-Length as strconv.ParseUint(v, 10, 63)
// does, which is what net/http accepts: decimal digits only, up to 2^63-1.
func parseLength(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	var n uint64
	for _, d := range v {
		if !isDigit(d) {
			return 0, false
		}
		if n > (1<<63-1-uint64(d-'0'))/10 {
			return 0, false
		}
		n = n*10 + uint64(d-'0')
	}
	return int64(n), true
}

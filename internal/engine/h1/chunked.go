package h1

import "bytes"

// readChunked decodes a chunked body with net/http's rules: each size line
// ends in CRLF with no other CR and fits in 4 KiB, its size is at most 16
// hex digits (blanks after it and ";extensions" are ignored), each chunk's
// data ends in CRLF, and the size lines may not carry more than 16 KiB of
// overhead beyond what their data explains (net/http's defence against a
// sender that makes the client parse a lot to receive a little).
func (c *Client) readChunked(cn *conn, keep bool, resp *Response) error {
	var excess int64
	for {
		l, err := c.chunkLine(cn, resp)
		if err != nil {
			return err
		}
		excess += int64(len(l)) + 2 // the size line, and the CRLF after the data
		for len(l) > 0 && (l[len(l)-1] == ' ' || l[len(l)-1] == '\t') {
			l = l[:len(l)-1]
		}
		if i := bytes.IndexByte(l, ';'); i >= 0 {
			l = l[:i]
		}
		size, ok := parseChunkSize(l)
		if !ok {
			return malformed("chunk size %s", quote(l))
		}
		if size == 0 {
			return c.readTrailer(cn, resp)
		}
		if size > 1<<40 {
			excess = 0 // a chunk this big explains any overhead (and avoids overflow)
		} else {
			excess = max(excess-16-2*size, 0)
		}
		if excess > 16<<10 {
			return malformed("chunked body with too much overhead per byte of data")
		}
		if err := c.readN(cn, size, keep, resp); err != nil {
			return err
		}
		if err := c.chunkEnd(cn, resp); err != nil {
			return err
		}
	}
}

// chunkLine returns the next chunk-size line without its CRLF, consuming it.
func (c *Client) chunkLine(cn *conn, resp *Response) ([]byte, error) {
	for scanned := 0; ; {
		b := cn.buffered()
		if i := bytes.IndexByte(b[scanned:], '\n'); i >= 0 {
			l := b[:scanned+i+1]
			if len(l) > readBufSize {
				return nil, malformed("chunk size line longer than 4 KiB")
			}
			cn.consume(len(l), resp)
			if cr := bytes.IndexByte(l, '\r'); cr < 0 {
				return nil, malformed("chunk size line ends in a bare LF")
			} else if cr != len(l)-2 {
				return nil, malformed("CR inside a chunk size line")
			}
			return l[:len(l)-2], nil
		}
		scanned = len(b)
		if scanned >= readBufSize {
			return nil, malformed("chunk size line longer than 4 KiB")
		}
		if err := cn.fill(readBufSize); err != nil {
			return nil, unexpected(err)
		}
	}
}

// chunkEnd consumes the CRLF that must follow a chunk's data.
func (c *Client) chunkEnd(cn *conn, resp *Response) error {
	if err := cn.need(2); err != nil {
		return err
	}
	if b := cn.buffered(); b[0] != '\r' || b[1] != '\n' {
		return malformed("chunk data not followed by CRLF")
	}
	cn.consume(2, resp)
	return nil
}

// readTrailer reads the trailer fields after the last chunk, validated as
// header fields and then dropped. Like net/http, it wants the trailer's
// blank line (CRLF CRLF) within 4 KiB, so a sender cannot stream fields
// forever.
func (c *Client) readTrailer(cn *conn, resp *Response) error {
	if err := cn.need(2); err != nil {
		return err
	}
	if b := cn.buffered(); b[0] == '\r' && b[1] == '\n' {
		cn.consume(2, resp) // no trailer: the common case
		return nil
	}
	for {
		b := cn.buffered()
		if bytes.Contains(b[:min(len(b), readBufSize)], crlfcrlf) {
			break
		}
		if len(b) >= readBufSize {
			return malformed("trailer longer than 4 KiB")
		}
		if err := cn.fill(readBufSize); err != nil {
			return unexpected(err)
		}
	}
	for first := true; ; first = false {
		b := cn.buffered()
		i := bytes.IndexByte(b, '\n') // found: the window holds a blank line
		l := b[:i]
		cn.consume(i+1, resp)
		if len(l) > 0 && l[len(l)-1] == '\r' {
			l = l[:len(l)-1]
		}
		if err := checkTrailerLine(l, first); err != nil || len(l) == 0 {
			return err
		}
	}
}

// checkTrailerLine validates one trailer line as a header line.
func checkTrailerLine(l []byte, first bool) error {
	switch {
	case len(l) == 0:
		return nil
	case l[0] == ' ' || l[0] == '\t':
		if first || !validValue(l) {
			return malformed("trailer line %s", quote(l))
		}
		return nil
	}
	name, value, found := bytes.Cut(l, []byte{':'})
	if !found || !validName(name) || !validValue(value) {
		return malformed("trailer line %s", quote(l))
	}
	return nil
}

var crlfcrlf = []byte("\r\n\r\n")

// parseChunkSize parses at most 16 hex digits, as net/http; sizes past
// 2^63-1 are refused (no body that long can follow).
func parseChunkSize(l []byte) (int64, bool) {
	if len(l) == 0 || len(l) > 16 {
		return 0, false
	}
	var n uint64
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
		n = n<<4 | uint64(v)
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}

package h1

import "bytes"

// head is one response head: its status line and what its header fields
// say about the body. The fields themselves are copied into Client.hdr.
type head struct {
	statusLine
	open      int // start in hdr of the field still being read (folded lines join it); -1: none
	value     int // start in hdr of that field's value
	clCount   int // Content-Length fields
	cl        [2]int
	teCount   int // Transfer-Encoding fields
	teChunked bool
	te        [2]int
	connClose bool // Connection lists close
	connKeep  bool // Connection lists keep-alive
	setCookie bool // a Set-Cookie field came
	location  bool // a Location field came
}

// readHead reads one response head from cn into h and c.hdr. It works line
// by line as bytes arrive, so a reply that is not HTTP fails at its first
// bad line, as net/http fails, rather than waiting for a blank line that may
// never come. Lines may end in LF alone, as net/textproto allows.
func (c *Client) readHead(cn *conn, h *head, resp *Response) error {
	*h = head{open: -1}
	c.hdr = c.hdr[:0]
	size := 0 // bytes of this head so far, bounded by maxHeader
	for n := 0; ; n++ {
		l, err := c.headLine(cn, size, resp)
		if err != nil {
			if n == 0 && http2Frames(cn.buffered()) {
				return ErrHTTP2Cleartext // no LF in its frames before the server closed
			}
			return err
		}
		size += len(l)
		raw := l
		l = l[:len(l)-1] // the LF, then a CR before it
		if len(l) > 0 && l[len(l)-1] == '\r' {
			l = l[:len(l)-1]
		}
		switch {
		case n == 0:
			if h.statusLine, err = parseStatusLine(l); err != nil {
				if http2Frames(raw) {
					return ErrHTTP2Cleartext
				}
				return err
			}
			c.reason = append(c.reason[:0], h.reason...) // copied: the buffer moves on
			h.reason = c.reason
		case len(l) == 0:
			return c.closeField(h)
		case l[0] == ' ' || l[0] == '\t':
			if err := c.foldLine(h, l); err != nil {
				return err
			}
		default:
			if err := c.closeField(h); err != nil {
				return err
			}
			if err := c.openField(h, l); err != nil {
				return err
			}
		}
	}
}

// headLine returns the next line of a head, its LF included, consuming it.
// The slice is valid until the buffer is next filled.
func (c *Client) headLine(cn *conn, size int, resp *Response) ([]byte, error) {
	for scanned := 0; ; {
		b := cn.buffered()
		if i := bytes.IndexByte(b[scanned:], '\n'); i >= 0 {
			l := b[:scanned+i+1]
			if size+len(l) > maxHeader {
				return nil, ErrHeaderTooBig
			}
			cn.consume(len(l), resp)
			return l, nil
		}
		scanned = len(b)
		if size+scanned >= maxHeader {
			return nil, ErrHeaderTooBig
		}
		if err := cn.fill(maxHeader); err != nil {
			return nil, unexpected(err)
		}
		if resp.FirstByte.IsZero() {
			resp.FirstByte = cn.clk.Now()
			c.firstRead = cn.reads
		}
	}
}

// openField starts a field from a line "Name: value", as net/textproto
// reads it: the name is everything before the first colon, and must be
// token characters (or spaces, which textproto tolerates); the value is
// trimmed of blanks.
func (c *Client) openField(h *head, l []byte) error {
	colon := nameEnd(l)
	if colon <= 0 { // no colon, or a name that is empty or not a token: say which
		colon = bytes.IndexByte(l, ':')
		if colon < 0 {
			return malformed("header line without a colon: %s", quote(l))
		}
		if name := l[:colon]; !validName(name) {
			return malformed("invalid header field name %s", quote(name))
		}
	}
	name, value := l[:colon], l[colon+1:]
	if !validValue(value) {
		return malformed("invalid byte in the value of header %s", quote(name))
	}
	h.open = len(c.hdr)
	if len(value) >= 2 && value[0] == ' ' && !isBlank(value[1]) && !isBlank(value[len(value)-1]) {
		c.hdr = append(c.hdr, l...) // already "Name: value" as it is kept: one copy
		h.value = h.open + colon + 2
		return nil
	}
	c.hdr = append(c.hdr, name...)
	c.hdr = append(c.hdr, ": "...)
	h.value = len(c.hdr)
	c.hdr = append(c.hdr, trimBlank(value)...)
	return nil
}

func isBlank(c byte) bool { return c == ' ' || c == '	' }

// nameEnd returns the index of l's first colon if every byte before it is
// a valid name byte, else -1: one pass over a name of a few bytes, where
// finding the colon and then validating the name took two.
func nameEnd(l []byte) int {
	for i, ch := range l {
		if ch == ':' {
			return i
		}
		if !nameBytes[ch] {
			return -1
		}
	}
	return -1
}

// foldLine joins an obsolete folded line to the field before it with one
// space, as net/textproto does; the head's first field cannot be folded.
func (c *Client) foldLine(h *head, l []byte) error {
	if h.open < 0 {
		return malformed("header starts with a folded line %s", quote(l))
	}
	if !validValue(l) {
		return malformed("invalid byte in a folded header line %s", quote(l))
	}
	if len(c.hdr) > h.value {
		c.hdr = append(c.hdr, ' ')
	}
	c.hdr = append(c.hdr, trimBlank(l)...)
	return nil
}

// closeField ends the field being read and notes what it says about
// framing; its value is final only now, as folded lines may extend it.
func (c *Client) closeField(h *head) error {
	if h.open < 0 {
		return nil
	}
	name, value := c.hdr[h.open:h.value-2], c.hdr[h.value:]
	switch {
	case equalLower(name, "content-length"):
		h.clCount++
		if h.clCount == 1 {
			h.cl = [2]int{h.value, len(c.hdr)}
		} else if first := c.hdr[h.cl[0]:h.cl[1]]; !bytes.Equal(trimBlank(first), trimBlank(value)) {
			return malformed("two different Content-Length values, %s and %s", quote(first), quote(value))
		}
	case equalLower(name, "transfer-encoding"):
		h.teCount++
		h.te = [2]int{h.value, len(c.hdr)}
		h.teChunked = equalLower(value, "chunked")
	case equalLower(name, "connection"):
		h.connClose = h.connClose || hasToken(value, "close")
		h.connKeep = h.connKeep || hasToken(value, "keep-alive")
	case equalLower(name, "set-cookie"):
		h.setCookie = true
	case equalLower(name, "location"):
		h.location = true
	}
	c.hdr = append(c.hdr, crlf...)
	h.open = -1
	return nil
}

// http2Frames reports whether b starts as an HTTP/2 server starts a
// connection: a SETTINGS frame (RFC 9113 §3.4) on stream 0, its length a
// multiple of 6. An HTTP/1.1 status line never starts with a zero byte.
func http2Frames(b []byte) bool {
	const settings = 0x4
	if len(b) < 9 || b[3] != settings || b[4]&^0x1 != 0 {
		return false
	}
	length := int(b[0])<<16 | int(b[1])<<8 | int(b[2])
	return length%6 == 0 && b[5]|b[6]|b[7]|b[8] == 0
}

package h1

import (
	"bytes"
	"io"
	"net"
	"time"
)

// conn is one kept-alive connection and its read buffer.
type conn struct {
	nc         net.Conn
	addr       string
	buf        []byte // read buffer; unread bytes are buf[r:w]
	r, w       int
	used       int  // completed exchanges
	closeAfter bool // the last response asked to close
}

const readBufSize = 4 << 10

// fill reads more bytes into the buffer, compacting or growing it first
// when full; limit bounds the growth.
func (cn *conn) fill(limit int) error {
	if cn.buf == nil {
		cn.buf = make([]byte, readBufSize) // allocated at first use, so idle VUs stay small
	}
	if cn.w == len(cn.buf) {
		if cn.r > 0 {
			cn.w = copy(cn.buf, cn.buf[cn.r:cn.w])
			cn.r = 0
		} else if len(cn.buf) < limit {
			nb := make([]byte, min(2*len(cn.buf), limit))
			cn.w = copy(nb, cn.buf[cn.r:cn.w])
			cn.r, cn.buf = 0, nb
		} else {
			return ErrHeaderTooBig
		}
	}
	n, err := cn.nc.Read(cn.buf[cn.w:])
	cn.w += n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// readResponse reads one response: status line, headers and body.
func (c *Client) readResponse(cn *conn, req *Request, resp *Response) error {
	var end int // index just past the header block's blank line
	for {
		if i := bytes.Index(cn.buf[cn.r:cn.w], crlfcrlf); i >= 0 {
			end = cn.r + i + 4
			break
		}
		before := cn.w - cn.r
		if err := cn.fill(maxHeader); err != nil {
			if cn.w > cn.r {
				return unexpected(err) // a response cut off mid-header
			}
			return err
		}
		if before == 0 && resp.FirstByte.IsZero() {
			resp.FirstByte = time.Now()
		}
		resp.Received = int64(cn.w - cn.r)
	}
	head := cn.buf[cn.r:end]
	resp.Received = int64(end - cn.r)
	cn.r = end
	status, reason, lines, proto10, err := parseHead(head)
	if err != nil {
		return err
	}
	c.hdr = append(c.hdr[:0], lines...) // copied: the body may overwrite the read buffer
	c.hdr = append(c.hdr, reason...)
	resp.Status = status
	resp.Header = c.hdr[:len(lines)]
	resp.StatusText = c.hdr[len(lines):]
	f := framing(lines, proto10)
	cn.closeAfter = f.close
	c.body = c.body[:0]
	c.maxBody = req.MaxBody
	switch {
	case req.Method == "HEAD" || status == 204 || status == 304 || (status >= 100 && status < 200):
		return nil
	case f.chunked:
		err = c.readChunked(cn, req.KeepBody, resp)
	case f.length >= 0:
		err = c.readN(cn, f.length, req.KeepBody, resp)
	default:
		cn.closeAfter = true // the body runs until the server closes
		err = c.readToEOF(cn, req.KeepBody, resp)
	}
	if req.KeepBody {
		resp.Body = c.body
	}
	return err
}

var crlfcrlf = []byte("\r\n\r\n")

// take consumes up to n buffered bytes, keeping them when keep is set.
func (c *Client) take(cn *conn, n int, keep bool, resp *Response) int {
	n = min(n, cn.w-cn.r)
	if keep {
		k := n
		if c.maxBody > 0 && int64(len(c.body)+k) > c.maxBody {
			k = int(max(c.maxBody-int64(len(c.body)), 0))
			resp.Truncated = true
		}
		c.body = append(c.body, cn.buf[cn.r:cn.r+k]...)
	}
	cn.r += n
	resp.Received += int64(n)
	if cn.r == cn.w {
		cn.r, cn.w = 0, 0 // an empty buffer restarts at its beginning, so reads stay large
	}
	return n
}

// readN reads a body of exactly n bytes.
func (c *Client) readN(cn *conn, n int64, keep bool, resp *Response) error {
	for n > 0 {
		if cn.r == cn.w {
			if err := cn.fill(readBufSize); err != nil {
				return unexpected(err)
			}
		}
		n -= int64(c.take(cn, int(min(n, int64(cn.w-cn.r))), keep, resp))
	}
	return nil
}

// readToEOF reads a body delimited by the end of the connection.
func (c *Client) readToEOF(cn *conn, keep bool, resp *Response) error {
	for {
		c.take(cn, cn.w-cn.r, keep, resp)
		if err := cn.fill(readBufSize); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// line returns the next CRLF-terminated line without its CRLF.
func (c *Client) line(cn *conn, resp *Response) ([]byte, error) {
	for {
		if i := bytes.Index(cn.buf[cn.r:cn.w], crlf); i >= 0 {
			l := cn.buf[cn.r : cn.r+i]
			cn.r += i + 2
			resp.Received += int64(i + 2)
			return l, nil
		}
		if err := cn.fill(maxHeader); err != nil {
			return nil, unexpected(err)
		}
	}
}

var crlf = []byte("\r\n")

// readChunked decodes a chunked body: size lines, data, and a trailer.
func (c *Client) readChunked(cn *conn, keep bool, resp *Response) error {
	for {
		l, err := c.line(cn, resp)
		if err != nil {
			return err
		}
		size, ok := parseChunkSize(l)
		if !ok {
			return ErrMalformed
		}
		if size == 0 {
			for { // trailer fields, up to the blank line
				l, err := c.line(cn, resp)
				if err != nil {
					return err
				}
				if len(l) == 0 {
					return nil
				}
			}
		}
		if err := c.readN(cn, size, keep, resp); err != nil {
			return err
		}
		if l, err := c.line(cn, resp); err != nil || len(l) != 0 {
			return orMalformed(err)
		}
	}
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func orMalformed(err error) error {
	if err != nil {
		return err
	}
	return ErrMalformed
}

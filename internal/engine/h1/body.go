package h1

import "io"

// take consumes up to n buffered bytes of body, keeping them when keep is
// set (up to the request's MaxBody).
func (c *Client) take(cn *conn, n int, keep bool, resp *Response) int {
	b := cn.buffered()
	n = min(n, len(b))
	if keep {
		k := n
		if c.maxBody > 0 && int64(len(c.body)+k) > c.maxBody {
			k = int(max(c.maxBody-int64(len(c.body)), 0))
			resp.Truncated = true
		}
		c.keep(b[:k])
	}
	cn.consume(n, resp)
	return n
}

// keep appends p to the kept body, growing it by doubling but never past
// MaxBody, so a capped body's memory is the cap.
func (c *Client) keep(p []byte) {
	if need := len(c.body) + len(p); need > cap(c.body) {
		size := max(2*cap(c.body), need, readBufSize)
		if c.maxBody > 0 {
			size = int(min(int64(size), max(c.maxBody, int64(need))))
		}
		nb := make([]byte, len(c.body), size)
		copy(nb, c.body)
		c.body = nb
	}
	c.body = append(c.body, p...)
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

// unexpected turns the end of the stream in the middle of a response into
// io.ErrUnexpectedEOF, as net/http reports it.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

package h1

// maxInterim bounds the interim (1xx) responses read before the final one,
// so a server that streams them forever cannot hold a VU. net/http once
// allowed 5; it now bounds their total header bytes instead (10 MB). Ten
// heads of at most 64 KiB each keep the bound small and leave room for
// 100 Continue, 102 Processing and a few 103 Early Hints.
const maxInterim = 10

// readResponse reads the final response to req: interim 1xx responses are
// read, counted in Received and skipped, as net/http's Transport skips them;
// 101 Switching Protocols is final (see the package comment).
func (c *Client) readResponse(cn *conn, req *Request, resp *Response) error {
	var h head
	for n := 0; ; n++ {
		if err := c.readHead(cn, &h, resp); err != nil {
			return err
		}
		kind, length, closeAfter, err := c.framing(&h, req.Method)
		if err != nil {
			return err
		}
		if h.code/100 == 1 && h.code != 101 {
			if n == maxInterim {
				return malformed("more than %d interim (1xx) responses", maxInterim)
			}
			continue
		}
		resp.Status = h.code
		resp.StatusText = c.reason
		resp.Header = c.hdr
		resp.SetCookie, resp.Location = h.setCookie, h.location
		cn.closeAfter = closeAfter || h.code == 101 // after 101 the connection speaks another protocol
		return c.readBody(cn, req, resp, kind, length)
	}
}

// readBody reads the body framed as kind says, keeping it if asked.
func (c *Client) readBody(cn *conn, req *Request, resp *Response, kind bodyKind, length int64) error {
	c.body = c.body[:0]
	c.maxBody = req.MaxBody
	keep := req.KeepBody
	if !keep && req.KeepError > 0 && resp.Status >= 400 {
		keep, c.maxBody = true, req.KeepError
	}
	var err error
	switch kind {
	case byLength:
		err = c.readN(cn, length, keep, resp)
	case byChunks:
		err = c.readChunked(cn, keep, resp)
	case untilEOF:
		err = c.readToEOF(cn, keep, resp)
	}
	if keep {
		resp.Body = c.body
	}
	return err
}

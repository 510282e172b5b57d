package h2

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// fieldCache keeps the strings of the last request's header fields: the
// encoder's table keeps the strings it indexes, so each field must be a
// string of its own, and a VU sends the same ones again and again.
type fieldCache struct {
	authority, path, agent []byte
	authorityS, pathS      string
	agentS                 string
	raw                    []byte              // Request.Header the fields were parsed from
	fields                 []hpack.HeaderField // its fields, names lowercased
}

// str returns b as a string, the cached one when b has not changed.
func str(b []byte, last *[]byte, s *string) string {
	if *s == "" || !bytes.Equal(b, *last) {
		*last = append((*last)[:0], b...)
		*s = string(b)
	}
	return *s
}

// skipField reports request fields HTTP/2 forbids (RFC 9113 §8.2.2) or
// that the client writes itself.
func skipField(name string) bool {
	switch name {
	case "connection", "proxy-connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length", "user-agent":
		return true
	}
	return false
}

// parseFields turns "Name: value\r\n" lines into fields with lowercase names.
func (fc *fieldCache) parseFields(raw []byte) []hpack.HeaderField {
	if fc.fields != nil && bytes.Equal(raw, fc.raw) {
		return fc.fields
	}
	fc.raw = append(fc.raw[:0], raw...)
	fc.fields = fc.fields[:0:0]
	for len(raw) > 0 {
		line, rest, _ := bytes.Cut(raw, []byte("\r\n"))
		raw = rest
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		n := string(bytes.ToLower(bytes.TrimSpace(name)))
		if skipField(n) {
			continue
		}
		v := string(bytes.TrimSpace(value))
		if n == "te" && v != "trailers" {
			continue // the only TE HTTP/2 allows
		}
		fc.fields = append(fc.fields, hpack.HeaderField{Name: n, Value: v})
	}
	return fc.fields
}

// writeHeaders queues the request's HEADERS frame, and CONTINUATION frames
// for a header block larger than the server's frame size.
func (c *Client) writeHeaders(cn *conn, req *h1.Request, u *target) error {
	scheme := "http"
	if u.secure {
		scheme = "https"
	}
	path := u.path
	if len(path) == 0 || path[0] == '?' {
		path = append(append(c.pathBuf[:0], '/'), path...)
		c.pathBuf = path
	}
	c.splitVolatile(req.Header)
	c.key = appendKey(c.key[:0], req, c.stable, path, u.authority)
	block := cn.same.block
	if !cn.same.ok || !bytes.Equal(c.key, cn.same.key) {
		block = c.encode(cn, req, scheme, path, u)
	} else {
		c.sameBlocks++
	}
	if len(c.vol) > 0 {
		if !bytes.Equal(cn.hb.Bytes(), block) {
			cn.hb.Reset()
			cn.hb.Write(block)
		}
		for _, v := range c.vol {
			cn.enc.WriteField(hpack.HeaderField{Name: v.name, Value: string(v.value), Sensitive: true})
		}
		block = cn.hb.Bytes()
	}
	c.st.rest = req.Body
	return c.frames(cn, block, len(req.Body) == 0)
}

// volField is a header field whose value is new at every request.
type volField struct {
	name  string
	value []byte
}

// volatileName returns the lower-case name of a field whose value is new
// at every request: the engine's traceparent, gRPC's grpc-timeout (the
// time left to the call's deadline).
func volatileName(name []byte) string {
	switch {
	case bytes.EqualFold(name, []byte("traceparent")):
		return "traceparent"
	case bytes.EqualFold(name, []byte("grpc-timeout")):
		return "grpc-timeout"
	}
	return ""
}

// splitVolatile copies the header lines into c.stable but the volatile
// ones (volatileName), whose values go to c.vol. Those are sent as
// literals never indexed: indexed, each would add an entry to both
// tables, evicting the fields that repeat, and no block would ever be all
// indexed (sameBlock).
func (c *Client) splitVolatile(raw []byte) {
	c.stable, c.vol = c.stable[:0], c.vol[:0]
	for len(raw) > 0 {
		line, rest, _ := bytes.Cut(raw, []byte("\r\n"))
		raw = rest
		if name, value, ok := bytes.Cut(line, []byte(":")); ok {
			if n := volatileName(bytes.TrimSpace(name)); n != "" {
				c.vol = append(c.vol, volField{n, bytes.TrimSpace(value)})
				continue
			}
		}
		c.stable = append(c.stable, line...)
		c.stable = append(c.stable, "\r\n"...)
	}
}

// sameBlock is a connection's last header block when it was all indexed
// fields: the encoder then changed no table, so the same request encodes
// to the same bytes again, and sending them spares the encoder's table
// search (a tenth of a request's CPU).
type sameBlock struct {
	ok    bool
	key   []byte // the request's method, path, authority, agent, header lines and length
	block []byte
}

// appendKey appends what a request's header block is made of.
func appendKey(b []byte, req *h1.Request, header, path, authority []byte) []byte {
	b = append(b, req.Method...)
	b = append(b, 0)
	b = append(b, path...)
	b = append(b, 0)
	b = append(b, authority...)
	b = append(b, 0)
	b = append(b, req.UserAgent...)
	b = append(b, 0)
	b = append(b, header...)
	b = append(b, 0)
	if req.Body != nil {
		b = strconv.AppendInt(b, int64(len(req.Body)), 10)
	}
	return b
}

// allIndexed reports whether a header block holds only indexed fields
// (RFC 7541 §6.1), which add nothing to the decoder's table.
func allIndexed(b []byte) bool {
	for i := 0; i < len(b); i++ {
		if b[i]&0x80 == 0 {
			return false
		}
		if b[i]&0x7f == 0x7f { // a 7-bit prefix integer continues while the high bit is set
			for i++; i < len(b) && b[i]&0x80 != 0; i++ {
			}
		}
	}
	return true
}

// encode encodes the request's header block with cn's encoder, and keeps
// it as cn's same block when it is all indexed.
func (c *Client) encode(cn *conn, req *h1.Request, scheme string, path []byte, u *target) []byte {
	fc := &c.fields
	cn.hb.Reset()
	enc := cn.enc
	enc.WriteField(hpack.HeaderField{Name: ":method", Value: req.Method})
	enc.WriteField(hpack.HeaderField{Name: ":scheme", Value: scheme})
	enc.WriteField(hpack.HeaderField{Name: ":authority", Value: str(u.authority, &fc.authority, &fc.authorityS)})
	enc.WriteField(hpack.HeaderField{Name: ":path", Value: str(path, &fc.path, &fc.pathS)})
	agent := "loadlens"
	if req.UserAgent != nil {
		agent = str(req.UserAgent, &fc.agent, &fc.agentS)
	}
	enc.WriteField(hpack.HeaderField{Name: "user-agent", Value: agent})
	for _, f := range fc.parseFields(c.stable) {
		enc.WriteField(f)
	}
	if !c.cfg.NoContentLength && (req.Body != nil || req.Method == "POST" || req.Method == "PUT" || req.Method == "PATCH") {
		enc.WriteField(hpack.HeaderField{Name: "content-length", Value: lengthString(len(req.Body))})
	}
	block := cn.hb.Bytes()
	cn.same.ok = allIndexed(block)
	if cn.same.ok {
		cn.same.key = append(cn.same.key[:0], c.key...)
		cn.same.block = append(cn.same.block[:0], block...)
	}
	return block
}

// frames queues a header block as a HEADERS frame and CONTINUATION frames.
func (c *Client) frames(cn *conn, block []byte, end bool) error {
	first := block[:min(len(block), cn.peerFrame)]
	block = block[len(first):]
	err := cn.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: c.st.id, BlockFragment: first,
		EndStream: end, EndHeaders: len(block) == 0})
	for err == nil && len(block) > 0 {
		part := block[:min(len(block), cn.peerFrame)]
		block = block[len(part):]
		err = cn.fr.WriteContinuation(c.st.id, len(block) == 0, part)
	}
	return err
}

// lengthString is strconv.Itoa, without allocating for small lengths.
func lengthString(n int) string {
	if n < len(smallLengths) {
		return smallLengths[n]
	}
	return strconv.Itoa(n)
}

var smallLengths = func() (s [1024]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

// reasons are the reason phrases of the status codes, which HTTP/2 does
// not send: the engine's failure messages say "404 Not Found" as for h1.
var reasons = func() (r [600][]byte) {
	for i := range r {
		if t := http.StatusText(i); t != "" {
			r[i] = []byte(t)
		}
	}
	return r
}()

// onHeaders reads a response's HEADERS: an interim (1xx) one is skipped,
// as h1 skips them; the final one gives the status and header fields.
func (c *Client) onHeaders(f *http2.MetaHeadersFrame, req *h1.Request, resp *h1.Response) error {
	st := &c.st
	if f.Truncated {
		return errHeaderTooBig
	}
	status := f.PseudoValue("status")
	code, err := strconv.Atoi(status)
	if err != nil || len(status) != 3 || code < 100 {
		return malformed("status %q", status)
	}
	if code < 200 {
		if code == http.StatusSwitchingProtocols || f.StreamEnded() {
			return malformed("status %d", code)
		}
		if st.interim++; st.interim > maxInterim {
			return malformed("more than %d interim (1xx) responses", maxInterim)
		}
		return nil
	}
	st.final = true
	resp.Status = code
	if code < len(reasons) {
		resp.StatusText = reasons[code]
	}
	for _, hf := range f.RegularFields() {
		c.hdr = append(c.hdr, hf.Name...)
		c.hdr = append(c.hdr, ": "...)
		c.hdr = append(c.hdr, hf.Value...)
		c.hdr = append(c.hdr, "\r\n"...)
		switch hf.Name {
		case "set-cookie":
			resp.SetCookie = true
		case "location":
			resp.Location = true
		case "content-length":
			n, err := strconv.ParseInt(hf.Value, 10, 64)
			if err != nil || n < 0 || st.length >= 0 && st.length != n {
				return malformed("content-length %q", hf.Value)
			}
			st.length = n
		}
	}
	if !st.keep && req.KeepError > 0 && code >= 400 {
		st.keep, st.maxBody = true, req.KeepError
	}
	if f.StreamEnded() {
		st.done, c.headOnly = true, true
		return c.complete(resp)
	}
	return nil
}

package engine

import (
	"bytes"
	"errors"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// stepHeaders is a request step's headers, rendered once per request and
// used by every hop of its redirects. Host, User-Agent and Cookie are kept
// apart: the first two are overrides both clients apply the same way, and
// a Cookie header is merged with the jar's cookies into one line.
type stepHeaders struct {
	lines               []byte // the other headers, as "Name: value\r\n" lines
	ctype               []byte // the Content-Type line alone
	host, agent, cookie []byte // the step's values; nil when it sets none
	buf                 []byte // storage of host, agent and cookie
	hop                 []byte // the lines of a hop, when they differ from lines
	tf                  traceFields
}

// errBadHeader reports a rendered header value that would split the request.
var errBadHeader = errors.New("header value contains a line break")

// render renders r's headers with the VU's variables.
func (h *stepHeaders) render(r *plan.Request, tc *tmpl.Context) error {
	h.lines, h.ctype, h.buf = h.lines[:0], h.ctype[:0], h.buf[:0]
	h.tf = traceFields{}
	var host, agent, cookie bufSpan
	for _, hd := range r.Headers {
		var at *bufSpan
		switch {
		case strings.EqualFold(hd.Name, "Host"):
			at = &host
		case strings.EqualFold(hd.Name, "User-Agent"):
			at = &agent
		case strings.EqualFold(hd.Name, "Cookie"):
			at = &cookie
		case strings.EqualFold(hd.Name, "Content-Length"), strings.EqualFold(hd.Name, "Transfer-Encoding"):
			continue // the engine frames the body; net/http drops these too
		}
		if at != nil {
			start := len(h.buf)
			h.buf = hd.Value.Render(h.buf, tc)
			if bytes.ContainsAny(h.buf[start:], "\r\n") {
				return errBadHeader
			}
			*at = bufSpan{start, len(h.buf), true}
			continue
		}
		start := len(h.lines)
		h.lines = append(h.lines, hd.Name...)
		h.lines = append(h.lines, ": "...)
		value := len(h.lines)
		h.lines = hd.Value.Render(h.lines, tc)
		if bytes.ContainsAny(h.lines[value:], "\r\n") {
			return errBadHeader
		}
		switch {
		case strings.EqualFold(hd.Name, "Content-Type"):
			h.ctype = append(h.ctype, h.lines[start:]...)
		case strings.EqualFold(hd.Name, "traceparent"):
			h.tf.parent, h.tf.value = true, bufSpan{value, len(h.lines), true}
		case strings.EqualFold(hd.Name, "tracestate"):
			h.tf.state = true
		case strings.EqualFold(hd.Name, "baggage"):
			h.tf.baggage = true
		}
		h.lines = append(h.lines, "\r\n"...)
	}
	h.host, h.agent, h.cookie = h.span(host), h.span(agent), h.span(cookie)
	return nil
}

// bufSpan is where in buf a value was rendered.
type bufSpan struct {
	start, end int
	set        bool
}

// span returns the bytes of buf a render stored, or nil when none was.
func (h *stepHeaders) span(s bufSpan) []byte {
	if !s.set {
		return nil
	}
	return h.buf[s.start:s.end:s.end]
}

// hopLines returns the header lines of one hop. On the step's own host
// that is every header; on another host only Content-Type when the body
// goes along, as no credential or custom header of the test may leave its
// hosts. The Cookie line joins the step's Cookie header (own host only)
// and the jar's cookies for the hop's URL.
func (h *stepHeaders) hopLines(ownHost, withBody bool, jar string) []byte {
	own := h.cookie != nil && ownHost
	if ownHost && !own && jar == "" {
		return h.lines
	}
	h.hop = h.hop[:0]
	switch {
	case ownHost:
		h.hop = append(h.hop, h.lines...)
	case withBody:
		h.hop = append(h.hop, h.ctype...)
	}
	if own || jar != "" {
		h.hop = append(h.hop, "Cookie: "...)
		if own {
			h.hop = append(h.hop, h.cookie...)
		}
		if own && jar != "" {
			h.hop = append(h.hop, "; "...)
		}
		h.hop = append(h.hop, jar...)
		h.hop = append(h.hop, "\r\n"...)
	}
	return h.hop
}

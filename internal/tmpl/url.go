package tmpl

import "bytes"

// JoinURL returns a template for a request URL whose path is only known
// when rendered (a path from a CSV column or env): path's output is used
// as it is when it is an absolute http(s) URL, and otherwise joined to
// base with one "/" between them; query's output, when not empty, follows
// after "?", or "&" when the URL has a query already. Deciding this from
// the template's source instead sent "//products/1" for a path
// "{{ path }}" whose value began with "/".
func JoinURL(base string, path, query *Template) *Template {
	p := part{kind: urlPart, text: base}
	if path != nil {
		p.sub = path.parts
	}
	if query != nil {
		p.query = query.parts
	}
	return &Template{parts: []part{p}, src: base + path.String() + query.String()}
}

// JoinWSURL is JoinURL for a WebSocket step's URL: a value that is an
// absolute ws:// or wss:// URL is also used as it is, so that a template
// whose value is ws://host/chat is dialled there, as the same URL written
// literally is, rather than joined to base_url as a path.
func JoinWSURL(base string, path, query *Template) *Template {
	t := JoinURL(base, path, query)
	t.parts[0].ws = true
	return t
}

// renderURL appends a urlPart's output to dst (see JoinURL).
func renderURL(dst []byte, p *part, c *Context) []byte {
	start := len(dst)
	dst = renderParts(dst, p.sub, c)
	if !hasHTTPScheme(dst[start:]) && (!p.ws || !hasWSScheme(dst[start:])) {
		dst = insertBase(dst, start, p.text)
	}
	if len(p.query) == 0 {
		return dst
	}
	mark := len(dst)
	dst = append(dst, '?')
	dst = renderParts(dst, p.query, c)
	switch {
	case len(dst) == mark+1:
		dst = dst[:mark] // no pairs: no separator either
	case bytes.IndexByte(dst[start:mark], '?') >= 0:
		dst[mark] = '&'
	}
	return dst
}

// insertBase puts base, and a "/" unless the path at dst[start:] has one,
// before that path.
func insertBase(dst []byte, start int, base string) []byte {
	n := len(base)
	if len(dst) == start || dst[start] != '/' {
		n++
	}
	end := len(dst)
	for range n {
		dst = append(dst, 0)
	}
	copy(dst[start+n:], dst[start:end])
	copy(dst[start:], base)
	if n > len(base) {
		dst[start+len(base)] = '/'
	}
	return dst
}

// hasHTTPScheme reports whether u starts with http:// or https://, in any
// case.
func hasHTTPScheme(u []byte) bool { return hasPrefixFold(u, "http://") || hasPrefixFold(u, "https://") }

// hasWSScheme reports whether u starts with ws:// or wss://, in any case.
func hasWSScheme(u []byte) bool { return hasPrefixFold(u, "ws://") || hasPrefixFold(u, "wss://") }

// hasPrefixFold reports whether u starts with the ASCII prefix s, in any case.
func hasPrefixFold(u []byte, s string) bool {
	return len(u) >= len(s) && bytes.EqualFold(u[:len(s)], []byte(s))
}

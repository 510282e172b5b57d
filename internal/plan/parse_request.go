package plan

import (
	"errors"
	"net/textproto"
	"net/url"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// Content types set by json: and form: unless a header gives one.
const (
	jsonContentType = "application/json"
	formContentType = "application/x-www-form-urlencoded"
)

// request parses a request step.
func (p *parser) request(o *object, sc *scenarioCtx) (*Request, bool) {
	errsBefore := len(p.errs.errs)
	r := &Request{Endpoint: -1, Timeout: sc.def.timeout, ExpectStatus: sc.def.expect,
		MaxRedirects: sc.def.redirects, MaxBody: sc.def.maxBody}
	method, pathNode, hasPath := p.methodAndPath(o)
	r.Method = method
	var pathSrc string
	if hasPath {
		pathSrc, hasPath = p.nonEmpty(pathNode, "a path like /products/{{ id }}")
	}
	named, _, _ := cutUserinfo(pathSrc) // an endpoint is never named by its credentials
	name := pathWithoutQuery(named)
	if n, ok := o.get("name"); ok {
		name, _ = p.nonEmpty(n, "an endpoint name")
	}
	if method != "" && name != "" && sc.s.ID >= 0 { // a setup or teardown request is not measured
		r.Endpoint = p.layout.endpoint(sc.s.ID, sc.group, method+" "+name, method)
	}
	var auth string // the Authorization value the URL's credentials stand for
	if hasPath {
		r.URL, auth = p.requestURL(pathNode, pathSrc, o, sc)
	}
	if r.Endpoint >= 0 && r.URL != nil {
		p.layout.scheme(r.Endpoint, strings.HasPrefix(strings.ToLower(r.URL.String()), "http://"))
	}
	if n, ok := o.get("timeout"); ok {
		if d, ok := p.positiveDuration(n); ok {
			r.Timeout = d
		}
	}
	if n, ok := o.get("expect_status"); ok {
		r.ExpectStatus, _, _ = p.statusCodes(n)
	}
	if n, ok := o.get("redirects"); ok {
		if v, ok := p.redirects(n); ok {
			r.MaxRedirects = v
		}
	}
	if n, ok := o.get("max_body"); ok {
		if v, ok := p.size(n); ok {
			r.MaxBody = v
		}
	}
	var stepHeaders []field
	if n, ok := o.get("headers"); ok {
		stepHeaders = p.headerFields(n)
	}
	r.Body, r.BodyKind = p.body(o, sc)
	if n, ok := o.get("body_file"); ok && r.Body != nil {
		r.BodyFile = scalarText(n.v)
	}
	r.Headers = withAuthorization(p.headers(sc.def.headers, stepHeaders, sc.scope), auth)
	switch r.BodyKind {
	case JSONBody:
		r.Headers = withContentType(r.Headers, jsonContentType)
	case FormBody:
		r.Headers = withContentType(r.Headers, formContentType)
	}
	if n, ok := o.get("check"); ok {
		r.Checks = p.checks(n, r.Endpoint)
	}
	if n, ok := o.get("extract"); ok {
		r.Extract = p.extracts(n, r.Endpoint, sc)
	}
	for _, c := range r.Checks {
		r.NeedBody = r.NeedBody || c.From == FromBody || c.From == FromJSON
	}
	for _, e := range r.Extract {
		r.NeedBody = r.NeedBody || e.From == FromJSON || e.From == FromRegex
	}
	return r, len(p.errs.errs) == errsBefore
}

// methodAndPath returns the request's method (upper case) and the node of
// its path, from `get: /path` or `method: X` with `path: /path`.
func (p *parser) methodAndPath(o *object) (string, node, bool) {
	var found []field
	for _, f := range o.fields {
		if slices.Contains(methodKeys, f.name) || f.name == "method" {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		p.errs.missing(o.key, o.path, o.path, "a step needs a request (get: /path, post: /path, ... or method: with path:) or think:")
		return "", node{}, false
	}
	if len(found) > 1 {
		p.errs.add(found[1].val.key, found[1].val.path, "a step sends one request: %s and %s both given", found[0].name, found[1].name)
		return "", node{}, false
	}
	f := found[0]
	if f.name != "method" {
		if o.has("path") {
			p.errs.add(o.keyPos("path"), joinPath(o.path, "path"), "path goes with method:; %s: already gives the path", f.name)
		}
		return strings.ToUpper(f.name), f.val, true
	}
	m, ok := p.nonEmpty(f.val, "an HTTP method like GET")
	if ok && !isToken(m) {
		p.errs.add(f.val.pos, f.val.path, "bad HTTP method %q", m)
		ok = false
	}
	path, hasPath := o.get("path")
	if !hasPath {
		p.errs.missing(o.key, o.path, o.path, "missing key \"path\": method: needs path:")
	}
	if !ok {
		return "", node{}, false
	}
	return strings.ToUpper(m), path, hasPath
}

// pathWithoutQuery cuts a path as written at its query, ignoring any ? in
// {{ }} parts, to name its endpoint.
func pathWithoutQuery(path string) string {
	depth := 0
	for i := 0; i < len(path); i++ {
		switch {
		case strings.HasPrefix(path[i:], "{{"):
			depth++
			i++
		case strings.HasPrefix(path[i:], "}}") && depth > 0:
			depth--
			i++
		case path[i] == '?' && depth == 0:
			return path[:i]
		}
	}
	return path
}

// requestURL builds the full URL: base URL, path, then the query: mapping
// with its values query-escaped. Credentials in the URL (user:pass@) are
// taken out of it and returned as the Authorization value they stand for:
// the step's own for an absolute URL, base_url's for a relative path.
func (p *parser) requestURL(pathNode node, pathSrc string, o *object, sc *scenarioCtx) (*tmpl.Template, string) {
	pathT, ok := p.compile(pathNode, pathSrc, sc.scope)
	if !ok {
		return nil, ""
	}
	if at, r, found := unsendable(pathSrc); found {
		p.errs.add(p.src.posAt(pathNode.v, at), pathNode.path, "a URL cannot hold the control character %U: write it percent-encoded (%%%02X), or put the value under query:, which is escaped", r, r)
		return nil, ""
	}
	p.noteURLSecret(pathNode)
	clean, auth, _ := cutUserinfo(pathSrc)
	if escaped := escapeSpaces(clean); escaped != pathSrc {
		// Sent as %20, as net/http and k6 do, and without credentials;
		// compiled after the text as written, so that template errors
		// point at the right column.
		pathT, _ = p.compile(pathNode, escaped, sc.scope)
	}
	pathSrc = clean
	var b partsBuilder
	if scheme, abs := urlScheme(pathSrc); abs {
		if scheme != "http" && scheme != "https" {
			p.errs.add(pathNode.pos, pathNode.path, "unsupported URL scheme %q: use http or https", scheme)
			return nil, ""
		}
	} else {
		if sc.def.baseURL == "" {
			if p.badBase {
				return nil, "" // base_url's own error says what is wrong
			}
			p.errs.add(pathNode.pos, pathNode.path, "relative path %q needs base_url at the top of the file (or write a full http:// URL)", Redact(pathSrc))
			return nil, ""
		}
		b.text(strings.TrimSuffix(sc.def.baseURL, "/"))
		if !strings.HasPrefix(pathSrc, "/") {
			b.text("/")
		}
		auth = sc.def.baseAuth
	}
	b.template(pathT, tmpl.Raw)
	if q, ok := o.get("query"); ok {
		sep := "?"
		if strings.Contains(pathSrc, "?") {
			sep = "&"
		}
		p.encodedPairs(&b, q, sep, "a mapping of query parameters", sc)
	}
	u := b.done()
	if c, isConst := u.Const(); isConst {
		return p.constURL(pathNode, pathSrc, c, auth)
	}
	p.nameTemplatedHost(pathSrc, sc.scope)
	return u, auth
}

// constURL checks a request's URL that needs no rendering, c, written as
// src at n, and takes out the credentials an env lookup put into it.
func (p *parser) constURL(n node, src, c, auth string) (*tmpl.Template, string) {
	pu, err := url.Parse(c)
	if err != nil || pu.Host == "" {
		p.errs.add(n.pos, n.path, "bad URL %q: %s", Redact(c), urlProblem(err))
		return nil, ""
	}
	if !p.checkPort(n, src, pu) {
		return nil, ""
	}
	if clean, a, has := cutUserinfo(c); has {
		c, auth = clean, a
	}
	p.nameHost(c)
	return tmpl.Literal(c), auth
}

// withAuthorization adds the Authorization header a URL's credentials
// stand for (auth; "": none) to hs, unless hs has one: a header written in
// the test wins, as in curl and net/http.
func withAuthorization(hs []Header, auth string) []Header {
	if auth == "" {
		return hs
	}
	for _, h := range hs {
		if h.Name == "Authorization" {
			return hs
		}
	}
	return append(hs, Header{Name: "Authorization", Value: tmpl.Literal(auth)})
}

// encodedPairs appends key=value pairs of mapping n to b, joined with & and
// started by first, with keys and values query-escaped. A list value
// repeats its key. It serves URL queries and form bodies.
func (p *parser) encodedPairs(b *partsBuilder, n node, first, what string, sc *scenarioCtx) {
	o, ok := p.object(n, what, nil)
	if !ok {
		return
	}
	sep := first
	add := func(key string, v node) {
		s, ok := p.text(v, "text, a number or a list of them")
		if !ok {
			return
		}
		t, ok := p.compile(v, s, sc.scope)
		if !ok {
			return
		}
		p.noteSecretParam(key, v)
		b.text(sep + url.QueryEscape(key) + "=")
		b.template(t, tmpl.QueryComponent)
		sep = "&"
	}
	for _, f := range o.fields {
		if _, isList := f.val.v.(*ast.SequenceNode); !isList {
			add(f.name, f.val)
			continue
		}
		items, _ := p.list(f.val, "")
		for _, item := range items {
			add(f.name, item)
		}
	}
}

// unsendable finds a control character in the literal text of a path
// (outside {{ }}), which no server can read in a request line.
func unsendable(path string) (int, rune, bool) {
	depth := 0
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case strings.HasPrefix(path[i:], "{{"):
			depth++
			i++
		case strings.HasPrefix(path[i:], "}}") && depth > 0:
			depth--
			i++
		case depth == 0 && (c < ' ' || c == 0x7f):
			return i, rune(c), true
		}
	}
	return 0, 0, false
}

// urlScheme returns the scheme of an absolute URL ("http" in http://x).
func urlScheme(s string) (string, bool) {
	i := strings.Index(s, "://")
	if i <= 0 {
		return "", false
	}
	for j, r := range s[:i] {
		letter := ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
		if !letter && (j == 0 || !strings.ContainsRune("0123456789+-.", r)) {
			return "", false
		}
	}
	return strings.ToLower(s[:i]), true
}

// headerFields parses a headers mapping into fields named by canonical
// header names, rejecting bad names and names given twice.
func (p *parser) headerFields(n node) []field {
	o, ok := p.object(n, "a mapping of header names to values", nil)
	if !ok {
		return nil
	}
	var out []field
	for _, f := range o.fields {
		if !isToken(f.name) {
			p.errs.add(f.val.key, f.val.path, "bad header name %q", f.name)
			continue
		}
		canon := textproto.CanonicalMIMEHeaderKey(f.name)
		dup := false
		for _, g := range out {
			dup = dup || g.name == canon
		}
		if dup {
			p.errs.add(f.val.key, f.val.path, "header %s is given twice (names are case-insensitive)", canon)
			continue
		}
		f.name = canon
		p.noteSecret(canon, f.val)
		out = append(out, f)
	}
	return out
}

// headers compiles the default headers and a step's own into one list: the
// defaults the step does not override, then the step's.
func (p *parser) headers(defaults, step []field, sc *tmpl.Scope) []Header {
	var out []Header
	compile := func(f field) (Header, bool) {
		s, ok := p.text(f.val, "a header value")
		if !ok {
			return Header{}, false
		}
		if strings.ContainsAny(s, "\r\n") {
			p.errs.add(f.val.pos, f.val.path, "a header value must be on one line")
			return Header{}, false
		}
		t, ok := p.compile(f.val, s, sc)
		return Header{Name: f.name, Value: t}, ok
	}
	own := map[string]bool{}
	for _, f := range step {
		own[f.name] = true
	}
	for _, f := range defaults {
		if own[f.name] {
			continue
		}
		if h, ok := compile(f); ok {
			out = append(out, h)
		}
	}
	for _, f := range step {
		if h, ok := compile(f); ok {
			out = append(out, h)
		}
	}
	return out
}

// withContentType adds a Content-Type header unless one is set.
func withContentType(hs []Header, ct string) []Header {
	for _, h := range hs {
		if h.Name == "Content-Type" {
			return hs
		}
	}
	return append(hs, Header{Name: "Content-Type", Value: tmpl.Literal(ct)})
}

// isToken reports whether s is an HTTP token (RFC 9110), as methods and
// header names must be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		ok := ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || strings.ContainsRune("!#$%&'*+-.^_`|~", r)
		if !ok {
			return false
		}
	}
	return true
}

// urlProblem says what url.Parse found wrong, without repeating the URL.
func urlProblem(err error) string {
	var ue *url.Error
	switch {
	case errors.As(err, &ue):
		return ue.Err.Error()
	case err != nil:
		return err.Error()
	}
	return "it has no host"
}

package plan

import (
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// Content types set by json: and form: unless a header gives one.
const (
	jsonContentType = "application/json"
	formContentType = "application/x-www-form-urlencoded"
)

// request parses a request step.
func (p *parser) request(o *yamldoc.Object, sc *scenarioCtx) (*Request, bool) {
	errsBefore := p.Errs.Len()
	r := &Request{Endpoint: -1, Timeout: sc.def.timeout, ExpectStatus: sc.def.expect,
		MaxRedirects: sc.def.redirects, MaxBody: sc.def.maxBody}
	method, pathNode, hasPath := p.methodAndPath(o)
	r.Method = method
	var pathSrc string
	if hasPath {
		pathSrc, hasPath = p.NonEmpty(pathNode, "a path like /products/{{ id }}")
	}
	named, _, _ := cutUserinfo(pathSrc) // an endpoint is never named by its credentials
	name := pathWithoutQuery(named)
	if n, ok := o.Get("name"); ok {
		name, _ = p.NonEmpty(n, "an endpoint name")
	}
	if method != "" && name != "" && sc.s.ID >= 0 { // a setup or teardown request is not measured
		r.Endpoint = p.layout.endpoint(sc.s.ID, sc.group, method+" "+name, method)
	}
	var auth string // the Authorization value the URL's credentials stand for
	if hasPath {
		r.URL, auth = p.requestURL(pathNode, pathSrc, o, sc, tmpl.JoinURL)
	}
	if r.Endpoint >= 0 && r.URL != nil {
		p.layout.scheme(r.Endpoint, strings.HasPrefix(strings.ToLower(r.URL.String()), "http://"))
	}
	if n, ok := o.Get("timeout"); ok {
		if d, ok := p.PositiveDuration(n); ok {
			r.Timeout = d
		}
	}
	if n, ok := o.Get("expect_status"); ok {
		r.ExpectStatus, _, _ = p.StatusCodes(n)
	}
	if n, ok := o.Get("redirects"); ok {
		if v, ok := p.redirects(n); ok {
			r.MaxRedirects = v
		}
	}
	if n, ok := o.Get("max_body"); ok {
		if v, ok := p.size(n); ok {
			r.MaxBody = v
		}
	}
	var stepHeaders []yamldoc.Field
	if n, ok := o.Get("headers"); ok {
		stepHeaders = p.headerFields(n)
	}
	r.Body, r.BodyKind = p.body(o, sc)
	if n, ok := o.Get("body_file"); ok && r.Body != nil {
		r.BodyFile, r.BodyFileAt = yamldoc.ScalarText(n.V), p.at(n)
	}
	r.Headers = withAuthorization(p.headers(sc.def.headers, stepHeaders, sc.scope), auth)
	switch r.BodyKind {
	case JSONBody:
		r.Headers = withContentType(r.Headers, jsonContentType)
	case FormBody:
		r.Headers = withContentType(r.Headers, formContentType)
	}
	if n, ok := o.Get("check"); ok {
		r.Checks = p.checks(n, r.Endpoint, sc.scope)
	}
	if n, ok := o.Get("extract"); ok {
		r.Extract = p.extracts(n, r.Endpoint, sc)
	}
	for _, c := range r.Checks {
		r.NeedBody = r.NeedBody || c.From == FromBody || c.From == FromJSON
	}
	for _, e := range r.Extract {
		r.NeedBody = r.NeedBody || e.From == FromJSON || e.From == FromRegex
	}
	return r, p.Errs.Len() == errsBefore
}

// methodAndPath returns the request's method (upper case) and the node of
// its path, from `get: /path` or `method: X` with `path: /path`.
func (p *parser) methodAndPath(o *yamldoc.Object) (string, yamldoc.Node, bool) {
	var found []yamldoc.Field
	for _, f := range o.Fields {
		if slices.Contains(methodKeys, f.Name) || f.Name == "method" {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		p.Errs.Missing(o.Key, o.Path, o.Path, "a step needs a request (get: /path, post: /path, ... or method: with path:) or think:")
		return "", yamldoc.Node{}, false
	}
	if len(found) > 1 {
		p.Errs.Add(found[1].Value.Key, found[1].Value.Path, "a step sends one request: %s and %s both given", found[0].Name, found[1].Name)
		return "", yamldoc.Node{}, false
	}
	f := found[0]
	if f.Name != "method" {
		if o.Has("path") {
			p.Errs.Add(o.KeyPos("path"), yamldoc.JoinPath(o.Path, "path"), "path goes with method:; %s: already gives the path", f.Name)
		}
		return strings.ToUpper(f.Name), f.Value, true
	}
	m, ok := p.NonEmpty(f.Value, "an HTTP method like GET")
	if ok && !yamldoc.IsToken(m) {
		p.Errs.Add(f.Value.Pos, f.Value.Path, "bad HTTP method %q", m)
		ok = false
	}
	path, hasPath := o.Get("path")
	if !hasPath {
		p.Errs.Missing(o.Key, o.Path, o.Path, "missing key \"path\": method: needs path:")
	}
	if !ok {
		return "", yamldoc.Node{}, false
	}
	return strings.ToUpper(m), path, hasPath
}

// pathWithoutQuery cuts a path as written at its query, ignoring any ? in
// {{ }} parts, to name its endpoint.
func pathWithoutQuery(path string) string {
	if i := literalByte(path, func(c byte) bool { return c == '?' }); i >= 0 {
		return path[:i]
	}
	return path
}

// literalByte returns the index of the first byte of path's literal text
// (outside {{ }}) that match accepts, or -1.
func literalByte(path string, match func(c byte) bool) int {
	depth := 0
	for i := 0; i < len(path); i++ {
		switch {
		case strings.HasPrefix(path[i:], "{{"):
			depth++
			i++
		case strings.HasPrefix(path[i:], "}}") && depth > 0:
			depth--
			i++
		case depth == 0 && match(path[i]):
			return i
		}
	}
	return -1
}

// requestURL builds the full URL: base URL, path, then the query: mapping
// with its values query-escaped. Credentials in the URL (user:pass@) are
// taken out of it and returned as the Authorization value they stand for:
// the step's own for an absolute URL, base_url's for a relative path.
// join makes the URL of a path that begins with a template (tmpl.JoinURL,
// or tmpl.JoinWSURL for a ws: step, whose value may be ws:// too).
func (p *parser) requestURL(pathNode yamldoc.Node, pathSrc string, o *yamldoc.Object, sc *scenarioCtx, join urlJoin) (*tmpl.Template, string) {
	pathT, ok := p.Compile(pathNode, pathSrc, sc.scope)
	if !ok {
		return nil, ""
	}
	if at, r, found := unsendable(pathSrc); found {
		p.Errs.Add(p.Src.PosAt(pathNode.V, at), pathNode.Path, "a URL cannot hold the control character %U: write it percent-encoded (%%%02X), or put the value under query:, which is escaped", r, r)
		return nil, ""
	}
	p.noteURLSecret(pathNode)
	clean, auth, _ := cutUserinfo(pathSrc)
	if escaped := escapeSpaces(clean); escaped != pathSrc {
		// Sent as %20, as net/http and k6 do, and without credentials;
		// compiled after the text as written, so that template errors
		// point at the right column.
		pathT, _ = p.Compile(pathNode, escaped, sc.scope)
	}
	pathSrc = clean
	if dynamicStart(pathSrc) {
		return p.joinedURL(pathT, o, sc, join), sc.def.baseAuth
	}
	var b tmpl.Builder
	if scheme, abs := urlScheme(pathSrc); abs {
		if scheme != "http" && scheme != "https" {
			p.Errs.Add(pathNode.Pos, pathNode.Path, "unsupported URL scheme %q: use http or https", scheme)
			return nil, ""
		}
	} else {
		if sc.def.baseURL == "" {
			if p.badBase {
				return nil, "" // base_url's own error says what is wrong
			}
			p.Errs.Add(pathNode.Pos, pathNode.Path, "relative path %q needs base_url at the top of the file (or write a full http:// URL)", Redact(pathSrc))
			return nil, ""
		}
		b.Text(strings.TrimSuffix(sc.def.baseURL, "/"))
		if !strings.HasPrefix(pathSrc, "/") {
			b.Text("/")
		}
		auth = sc.def.baseAuth
	}
	b.Template(pathT, tmpl.Raw)
	if q, ok := o.Get("query"); ok {
		sep := "?"
		if strings.Contains(pathSrc, "?") {
			sep = "&"
		}
		p.encodedPairs(&b, q, sep, "a mapping of query parameters", sc)
	}
	u := b.Done()
	if c, isConst := u.Const(); isConst {
		return p.constURL(pathNode, pathSrc, c, auth)
	}
	p.nameTemplatedHost(pathSrc, sc.scope)
	return u, auth
}

// urlJoin joins a templated path to base_url when its value is no full URL.
type urlJoin func(base string, path, query *tmpl.Template) *tmpl.Template

// dynamicStart reports whether a path begins with a template, so that
// only its value says whether it is a full URL, has a leading "/" or a
// query: a CSV column of paths or of URLs.
func dynamicStart(path string) bool {
	return strings.HasPrefix(strings.TrimLeft(path, " "), "{{")
}

// joinedURL is requestURL's URL for a path that begins with a template:
// joined to base_url (or used as it is, when its value is a full URL) as
// each request renders it. Without base_url, a value that is no full URL
// fails its request with the engine's bad-URL error.
func (p *parser) joinedURL(pathT *tmpl.Template, o *yamldoc.Object, sc *scenarioCtx, join urlJoin) *tmpl.Template {
	var q tmpl.Builder
	if n, ok := o.Get("query"); ok {
		p.encodedPairs(&q, n, "", "a mapping of query parameters", sc)
	}
	return join(strings.TrimSuffix(sc.def.baseURL, "/"), pathT, q.Done())
}

// constURL checks a request's URL that needs no rendering, c, written as
// src at n, and takes out the credentials an env lookup put into it.
func (p *parser) constURL(n yamldoc.Node, src, c, auth string) (*tmpl.Template, string) {
	pu, err := url.Parse(c)
	if err != nil || pu.Host == "" {
		p.Errs.Add(n.Pos, n.Path, "bad URL %q: %s", Redact(c), urlProblem(err))
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
func (p *parser) encodedPairs(b *tmpl.Builder, n yamldoc.Node, first, what string, sc *scenarioCtx) {
	o, ok := p.Object(n, what, nil)
	if !ok {
		return
	}
	sep := first
	add := func(key string, v yamldoc.Node) {
		s, ok := p.Text(v, "text, a number or a list of them")
		if !ok {
			return
		}
		t, ok := p.Compile(v, s, sc.scope)
		if !ok {
			return
		}
		p.noteSecretParam(key, v)
		b.Text(sep + url.QueryEscape(key) + "=")
		b.Template(t, tmpl.QueryComponent)
		sep = "&"
	}
	for _, f := range o.Fields {
		if _, isList := f.Value.V.(*ast.SequenceNode); !isList {
			add(f.Name, f.Value)
			continue
		}
		items, _ := p.List(f.Value, "")
		for _, item := range items {
			add(f.Name, item)
		}
	}
}

// unsendable finds a control character in the literal text of a path
// (outside {{ }}), which no server can read in a request line.
func unsendable(path string) (int, rune, bool) {
	i := literalByte(path, func(c byte) bool { return c < ' ' || c == 0x7f })
	if i < 0 {
		return 0, 0, false
	}
	return i, rune(path[i]), true
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

// headerFields parses a headers mapping (see headerMap) and notes the
// literal credentials among its values, which Plan.Source leaves out.
func (p *parser) headerFields(n yamldoc.Node) []yamldoc.Field {
	fs := p.Headers(n)
	for _, f := range fs {
		p.noteSecret(f.Name, f.Value)
	}
	return fs
}

// headers compiles the default headers and a step's own into one list: the
// defaults the step does not override, then the step's.
func (p *parser) headers(defaults, step []yamldoc.Field, sc *tmpl.Scope) []Header {
	var out []Header
	compile := func(f yamldoc.Field) (Header, bool) {
		s, ok := p.Text(f.Value, "a header value")
		if !ok {
			return Header{}, false
		}
		if strings.ContainsAny(s, "\r\n") {
			p.Errs.Add(f.Value.Pos, f.Value.Path, "a header value must be on one line")
			return Header{}, false
		}
		t, ok := p.Compile(f.Value, s, sc)
		return Header{Name: f.Name, Value: t}, ok
	}
	own := map[string]bool{}
	for _, f := range step {
		own[f.Name] = true
	}
	for _, f := range defaults {
		if own[f.Name] {
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

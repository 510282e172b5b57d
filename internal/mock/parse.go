package mock

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/boundedfile"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

var (
	topKeys      = []string{"listen", "tls", "admin", "defaults", "routes"}
	tlsKeys      = []string{"listen", "cert", "key"}
	behaviorKeys = []string{"latency", "errors", "bandwidth"}
	defaultKeys  = append([]string{"headers"}, behaviorKeys...)
	methodKeys   = []string{"get", "post", "put", "patch", "delete", "head", "options"}
	routeKeys    = append(append([]string{"name", "method", "path", "match", "vars", "status", "headers", "body", "json", "file"}, methodKeys...), behaviorKeys...)
	matchKeys    = []string{"headers", "query", "cookies", "body"}
	cmpKeys      = []string{"eq", "ne", "contains", "matches", "exists"}
	faultKeys    = []string{"rate", "status", "reset", "body"}
	varKeys      = []string{"json", "query", "header", "form", "cookie"}
)

// maxFile bounds a mock config and a file: body, read whole into memory.
const (
	maxConfig   = 10 << 20
	maxBodyFile = 256 << 20
)

// ParseFile reads and parses the mock config at path; env looks up
// {{ env... }} (nil: the process environment).
func ParseFile(path string, env func(string) (string, bool)) (*Config, error) {
	src, err := readFile(path, maxConfig)
	if err != nil {
		return nil, &yamldoc.Error{File: path, Msg: fmt.Sprintf("cannot read the mock config: %v", err)}
	}
	return Parse(path, src, env)
}

// readFile reads at most limit bytes of path, refusing a larger file or
// one that is not a regular file before reading it.
func readFile(path string, limit int64) ([]byte, error) {
	b, err := boundedfile.Read(path, limit, true)
	if pe, ok := err.(*os.PathError); ok {
		err = pe.Err
	}
	if _, ok := err.(*boundedfile.TooLargeError); ok {
		err = fmt.Errorf("larger than %d MiB", limit>>20)
	}
	return b, err
}

// configParser holds the state of one Parse.
type configParser struct {
	d    *yamldoc.Doc
	dir  string
	env  func(string) (string, bool)
	defs struct {
		headers  []yamldoc.Field
		behavior Behavior
	}
}

// Parse parses the text src of the mock config file. Every problem is
// reported, as yamldoc.Errors sorted by position.
func Parse(file string, src []byte, env func(string) (string, bool)) (*Config, error) {
	d := yamldoc.New(file, env)
	_, root, ok := d.Read(src)
	if !ok {
		return nil, d.Errs.Result()
	}
	p := &configParser{d: d, dir: filepath.Dir(file), env: env}
	cfg := p.config(root)
	if err := d.Errs.Result(); err != nil {
		return nil, err
	}
	cfg.File = file
	return cfg, nil
}

func (p *configParser) config(root yamldoc.Node) *Config {
	cfg := &Config{Listen: DefaultListen, Admin: DefaultAdmin}
	o, ok := p.d.Object(root, "a mock config (a mapping with listen, routes, ...)", topKeys)
	if !ok {
		return cfg
	}
	if n, ok := o.Get("listen"); ok {
		cfg.Listen = p.address(n)
	}
	if n, ok := o.Get("tls"); ok {
		cfg.TLS = p.tls(n)
	}
	if n, ok := o.Get("admin"); ok {
		if s, ok := p.d.NonEmpty(n, "a path prefix like /__mock"); ok {
			if !strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/") || len(s) < 2 {
				p.d.Errorf(n, "the admin prefix is a path like /__mock: starting with /, not ending with one")
			}
			cfg.Admin = s
		}
	}
	if n, ok := o.Get("defaults"); ok {
		if def, ok := p.d.Object(n, "route defaults (headers, latency, errors, bandwidth)", defaultKeys); ok {
			if h, ok := def.Get("headers"); ok {
				p.defs.headers = p.d.Headers(h)
			}
			p.defs.behavior = p.behavior(def, Behavior{})
		}
	}
	n, ok := o.Get("routes")
	if !ok {
		p.d.Errorf(root, "missing key \"routes\": a mock needs at least one route")
		return cfg
	}
	items, ok := p.d.List(n, "a list of routes")
	if ok && len(items) == 0 {
		p.d.Errorf(n, "needs at least one route")
	}
	names := map[string]bool{}
	for _, item := range items {
		r := p.route(item)
		if r == nil {
			continue
		}
		if names[r.Name] {
			p.d.Errorf(item, "route name %q is used twice: routes are named in metrics and the admin API (give one a name:)", r.Name)
		}
		names[r.Name] = true
		if strings.HasPrefix(r.Path, cfg.Admin+"/") || r.Path == cfg.Admin {
			p.d.Errorf(item, "path %s is under the admin prefix %s: choose another admin: prefix", r.Path, cfg.Admin)
		}
		cfg.Routes = append(cfg.Routes, r)
	}
	return cfg
}

// address reads host:port.
func (p *configParser) address(n yamldoc.Node) string {
	s, ok := p.d.NonEmpty(n, "an address like 127.0.0.1:8081")
	if !ok {
		return ""
	}
	if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
		p.d.Errorf(n, "bad address %q: write host:port, like 127.0.0.1:8081 (port 0: any free port)", s)
	}
	return s
}

func (p *configParser) tls(n yamldoc.Node) *TLSConfig {
	if !n.IsMap() {
		return &TLSConfig{Listen: p.address(n)}
	}
	o, ok := p.d.Object(n, "the TLS listener (listen, cert, key)", tlsKeys)
	if !ok {
		return nil
	}
	t := &TLSConfig{}
	if v, ok := o.Get("listen"); ok {
		t.Listen = p.address(v)
	} else {
		p.d.Errorf(n, "missing key \"listen\": the TLS listener's address, like 127.0.0.1:8443")
	}
	cert, hasCert := o.Get("cert")
	key, hasKey := o.Get("key")
	if hasCert != hasKey {
		p.d.Errorf(n, "give both cert and key (PEM files), or neither for a generated certificate")
	}
	if hasCert && hasKey {
		t.CertFile, _ = p.d.NonEmpty(cert, "a PEM certificate file")
		t.KeyFile, _ = p.d.NonEmpty(key, "a PEM key file")
		t.CertFile, t.KeyFile = p.rel(t.CertFile), p.rel(t.KeyFile)
	}
	return t
}

// rel resolves a path relative to the config file.
func (p *configParser) rel(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(p.dir, path)
}

// route parses one route.
func (p *configParser) route(n yamldoc.Node) *Route {
	o, ok := p.d.Object(n, "a route (a mapping with get: /path, status, body, ...)", routeKeys)
	if !ok {
		return nil
	}
	r := &Route{Status: http.StatusOK, stats: &routeStats{}}
	pathNode, ok := p.methodPath(o, r)
	if !ok {
		return nil
	}
	pat, off, err := parsePattern(r.Path)
	if err != nil {
		p.d.ErrorfAt(pathNode, off, "%v", err)
		return nil
	}
	r.pattern = pat
	r.Name = r.Method + " " + r.Path
	if r.Method == "" {
		r.Name = "ANY " + r.Path
	}
	if v, ok := o.Get("name"); ok {
		r.Name, _ = p.d.NonEmpty(v, "a route name")
	}
	if v, ok := o.Get("match"); ok {
		r.match = p.matchers(v)
	}
	scope := p.scope(o, r)
	if v, ok := o.Get("status"); ok {
		if codes, _, ok := p.d.StatusCodes(v); ok && len(codes) == 1 {
			r.Status = codes[0]
		} else if ok {
			p.d.Errorf(v, "a route answers one status (use errors: for others)")
		}
	}
	p.responseBody(o, r, scope)
	r.headers = p.headers(o, r, scope)
	if o.Has("body") && isJSON(r.headers, r.body) {
		r.body = tmpl.InJSON(r.body) // a request's value cannot close a string and add keys
	}
	p.needs(r)
	p.checkRender(o, r)
	r.initial = p.behavior(o, p.defs.behavior)
	r.behavior.Store(&r.initial)
	return r
}

// methodPath reads get: /path (and the other methods) or method: + path:.
func (p *configParser) methodPath(o *yamldoc.Object, r *Route) (yamldoc.Node, bool) {
	var given []string
	for _, k := range methodKeys {
		if o.Has(k) {
			given = append(given, k)
		}
	}
	if o.Has("path") {
		given = append(given, "path")
	}
	node := o.Node
	switch len(given) {
	case 0:
		p.d.Errorf(node, "a route needs a method and path: get: /path (or post, put, patch, delete, head, options), or method: and path:")
		return node, false
	case 1:
	default:
		v, _ := o.Get(given[1])
		p.d.Errorf(v, "give one of %s (both %s and %s given)", strings.Join(append(methodKeys, "path"), ", "), given[0], given[1])
		return node, false
	}
	pathNode, _ := o.Get(given[0])
	path, ok := p.d.NonEmpty(pathNode, "a path like /users/{id}")
	if !ok {
		return pathNode, false
	}
	r.Path = path
	if given[0] != "path" {
		if o.Has("method") {
			v, _ := o.Get("method")
			p.d.Errorf(v, "the method is already given by %s:", given[0])
		}
		r.Method = strings.ToUpper(given[0])
		return pathNode, true
	}
	if v, ok := o.Get("method"); ok {
		m, ok := p.d.NonEmpty(v, "a method like GET, or ANY")
		switch {
		case !ok:
		case strings.EqualFold(m, "ANY") || m == "*":
			r.Method = ""
		case !isToken(m):
			p.d.Errorf(v, "bad method %q", m)
		default:
			r.Method = strings.ToUpper(m)
		}
	}
	return pathNode, true
}

// matchers parses match: headers, query, cookies and body.
func (p *configParser) matchers(n yamldoc.Node) []matcher {
	o, ok := p.d.Object(n, "request matchers (headers, query, cookies, body)", matchKeys)
	if !ok {
		return nil
	}
	var out []matcher
	for _, f := range o.Fields {
		switch f.Name {
		case "headers", "query", "cookies":
			where := strings.TrimSuffix(strings.TrimSuffix(f.Name, "s"), "ie") // headers→header, cookies→cookie
			if f.Name == "cookies" {
				where = "cookie"
			}
			m, ok := p.d.Object(f.Value, "a mapping of names to values or comparisons", nil)
			if !ok {
				continue
			}
			for _, kv := range m.Fields {
				key := kv.Name
				if where == "header" {
					key = textproto.CanonicalMIMEHeaderKey(key)
				}
				if c, ok := p.comparison(kv.Value); ok {
					out = append(out, matcher{where: where, key: key, cmp: c})
				}
			}
		case "body":
			items := []yamldoc.Node{f.Value}
			if f.Value.IsList() {
				items, _ = p.d.List(f.Value, "a list of body matchers")
			}
			for _, item := range items {
				if m, ok := p.bodyMatcher(item); ok {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// comparison reads a value to equal, or {eq|ne|contains|matches|exists: ...}.
func (p *configParser) comparison(n yamldoc.Node) (comparison, bool) {
	if !n.IsMap() {
		s, ok := p.d.Text(n, "a value, or a comparison like {contains: text}")
		return comparison{op: "eq", value: s}, ok
	}
	o, ok := p.d.Object(n, "a comparison", cmpKeys)
	if !ok {
		return comparison{}, false
	}
	return p.oneComparison(o, o.Fields)
}

// oneComparison reads the single comparison among fields.
func (p *configParser) oneComparison(o *yamldoc.Object, fields []yamldoc.Field) (comparison, bool) {
	if len(fields) != 1 {
		p.d.Errorf(o.Node, "give exactly one comparison: %s", strings.Join(cmpKeys, ", "))
		return comparison{}, false
	}
	f := fields[0]
	c := comparison{op: f.Name}
	ok := true
	switch f.Name {
	case "matches":
		c.re, ok = p.d.Regex(f.Value)
	case "exists":
		c.exists, ok = p.d.Bool(f.Value)
	default:
		c.value, ok = p.d.Text(f.Value, "a value to compare with")
	}
	return c, ok
}

// bodyMatcher reads {contains|matches|eq: ...} or {json: PATH, <comparison>}.
func (p *configParser) bodyMatcher(n yamldoc.Node) (matcher, bool) {
	o, ok := p.d.Object(n, "a body matcher like {contains: text} or {json: $.id, eq: 7}", append([]string{"json"}, cmpKeys...))
	if !ok {
		return matcher{}, false
	}
	m := matcher{where: "body"}
	var ops []yamldoc.Field
	for _, f := range o.Fields {
		if f.Name == "json" {
			m.json = true
			if m.path, ok = p.d.JSONPath(f.Value); !ok {
				return m, false
			}
			continue
		}
		ops = append(ops, f)
	}
	if !m.json && len(ops) == 1 && ops[0].Name == "exists" {
		p.d.Errorf(ops[0].Value, "exists needs json: PATH (a body is always there)")
		return m, false
	}
	m.cmp, ok = p.oneComparison(o, ops)
	return m, ok
}

// scope reads vars: and returns the templates' scope: the built-ins, the
// path's parameters and the vars.
func (p *configParser) scope(o *yamldoc.Object, r *Route) *tmpl.Scope {
	names := map[string]int{}
	for i, b := range builtins {
		names[b] = i
	}
	add := func(n yamldoc.Node, name, what string) bool {
		if _, taken := names[name]; taken || slices.Contains([]string{"vu", "iteration", "scenario", "env"}, name) {
			p.d.Errorf(n, "%s %q is a name templates already use (taken: %s, vu, iteration, scenario, env, and earlier names)", what, name, strings.Join(builtins, ", "))
			return false
		}
		names[name] = len(names)
		return true
	}
	pathNode := o.Node
	for _, name := range r.pattern.params {
		add(pathNode, name, "path parameter")
	}
	for len(names) < firstParamSlot+len(r.pattern.params) { // a rejected name keeps its slot, so slots stay in pattern order
		names[fmt.Sprintf(" %d", len(names))] = len(names)
	}
	if n, ok := o.Get("vars"); ok {
		if m, ok := p.d.Object(n, "a mapping of variable names to request fields, like {name: {json: $.name}}", nil); ok {
			for _, f := range m.Fields {
				if !isIdent(f.Name) {
					p.d.Errorf(f.Value, "variable name %q: letters, digits and _, not starting with a digit", f.Name)
					continue
				}
				if v, ok := p.varSource(f); ok && add(f.Value, f.Name, "variable") {
					r.vars = append(r.vars, v)
				}
			}
		}
	}
	r.slots = len(names)
	return &tmpl.Scope{Vars: names, Env: p.env}
}

// varSource reads {json: PATH} or {query|header|form|cookie: NAME}.
func (p *configParser) varSource(f yamldoc.Field) (varSource, bool) {
	o, ok := p.d.Object(f.Value, "a request field like {json: $.name}, {query: page}, {header: X-Id}, {form: user} or {cookie: sid}", varKeys)
	if !ok {
		return varSource{}, false
	}
	fs := o.Fields
	if len(fs) != 1 {
		p.d.Errorf(f.Value, "give one request field: %s", strings.Join(varKeys, ", "))
		return varSource{}, false
	}
	v := varSource{name: f.Name, from: fs[0].Name}
	if v.from == "json" {
		v.path, ok = p.d.JSONPath(fs[0].Value)
		return v, ok
	}
	v.key, ok = p.d.NonEmpty(fs[0].Value, "a name")
	if v.from == "header" {
		v.key = textproto.CanonicalMIMEHeaderKey(v.key)
	}
	return v, ok
}

// responseBody reads body:, json: or file:, and sets the route's needs.
func (p *configParser) responseBody(o *yamldoc.Object, r *Route, sc *tmpl.Scope) {
	var given []string
	for _, k := range []string{"body", "json", "file"} {
		if o.Has(k) {
			given = append(given, k)
		}
	}
	if len(given) > 1 {
		v, _ := o.Get(given[1])
		p.d.Errorf(v, "give one body: body, json or file (%s and %s both given)", given[0], given[1])
		return
	}
	if len(given) == 0 {
		return
	}
	n, _ := o.Get(given[0])
	switch given[0] {
	case "body":
		r.body, _ = p.d.Template(n, sc)
	case "json":
		r.body, _ = p.d.JSONTemplate(n, sc)
	case "file":
		path, ok := p.d.NonEmpty(n, "a file whose content is the body")
		if !ok {
			return
		}
		b, err := readFile(p.rel(path), maxBodyFile)
		if err != nil {
			p.d.Errorf(n, "cannot read %s: %v", path, err)
			return
		}
		r.body = tmpl.Literal(string(b))
	}
	if c, ok := r.body.Const(); ok && r.body != nil {
		r.static = []byte(c)
		if bodyAllowed(r.Status) {
			r.staticLen = []string{strconv.Itoa(len(c))}
		}
	}
}

// needs records which request fields the route's templates read.
func (p *configParser) needs(r *Route) {
	var used []int
	if r.body != nil {
		used = append(used, r.body.UsesVars()...)
	}
	for _, h := range r.headers {
		used = append(used, h.value.UsesVars()...)
	}
	r.needs.vars = len(used) > 0
	r.needs.body = slices.Contains(used, slotBody)
}

// headers compiles the default and the route's response headers, adding a
// Content-Type for a body that has none.
func (p *configParser) headers(o *yamldoc.Object, r *Route, sc *tmpl.Scope) []header {
	var fields []yamldoc.Field
	var own []yamldoc.Field
	if n, ok := o.Get("headers"); ok {
		own = p.d.Headers(n)
	}
	for _, f := range p.defs.headers {
		if !slices.ContainsFunc(own, func(g yamldoc.Field) bool { return g.Name == f.Name }) {
			fields = append(fields, f)
		}
	}
	fields = append(fields, own...)
	var out []header
	for _, f := range fields {
		t, ok := p.d.Template(f.Value, sc)
		if !ok {
			continue
		}
		h := header{name: f.Name, value: t}
		if c, ok := t.Const(); ok {
			h.fixed = []string{c}
		}
		out = append(out, h)
	}
	if r.body != nil && !slices.ContainsFunc(out, func(h header) bool { return h.name == "Content-Type" }) {
		out = append(out, header{name: "Content-Type", value: tmpl.Literal(p.contentType(o, r)), fixed: []string{p.contentType(o, r)}, added: true})
	}
	return out
}

// contentType is the Content-Type of a body no header types.
func (p *configParser) contentType(o *yamldoc.Object, r *Route) string {
	switch {
	case o.Has("json"):
		return "application/json"
	case o.Has("file"):
		n, _ := o.Get("file")
		s, _ := p.d.Str(n, "")
		if t := mime.TypeByExtension(filepath.Ext(s)); t != "" {
			return t
		}
		return "application/octet-stream"
	}
	src := strings.TrimSpace(r.body.String())
	if strings.HasPrefix(src, "{") || strings.HasPrefix(src, "[") {
		return "application/json"
	}
	return "text/plain; charset=utf-8"
}

// behavior reads latency, errors and bandwidth over base.
func (p *configParser) behavior(o *yamldoc.Object, base Behavior) Behavior {
	b := base
	if n, ok := o.Get("latency"); ok {
		b.Latency = p.latency(n)
	}
	if n, ok := o.Get("errors"); ok {
		b.Faults = p.faults(n)
	}
	if n, ok := o.Get("bandwidth"); ok {
		b.Bandwidth = p.bandwidth(n)
	}
	return b
}

// faults reads errors: one fault or a list of them.
func (p *configParser) faults(n yamldoc.Node) []Fault {
	if n.IsNull() {
		return nil
	}
	items := []yamldoc.Node{n}
	if n.IsList() {
		items, _ = p.d.List(n, "a list of errors")
	}
	var out []Fault
	total := 0.0
	for _, item := range items {
		o, ok := p.d.Object(item, "an error like {rate: 1%, status: 503} or {rate: 0.1%, reset: true}", faultKeys)
		if !ok {
			continue
		}
		var f Fault
		if v, ok := o.Get("rate"); ok {
			f.Rate, _ = p.rate(v)
		} else {
			p.d.Errorf(item, "missing key \"rate\": the share of requests that fail, like 1%% or 0.01")
		}
		st, hasStatus := o.Get("status")
		rs, hasReset := o.Get("reset")
		switch {
		case hasStatus && hasReset:
			p.d.Errorf(rs, "give status or reset, not both")
		case hasStatus:
			f.Statuses, _, _ = p.d.StatusCodes(st)
		case hasReset:
			f.Reset, _ = p.d.Bool(rs)
			if !f.Reset {
				p.d.Errorf(rs, "reset: true resets the connection; leave it out to answer a status")
			}
		default:
			f.Statuses = []int{http.StatusInternalServerError}
		}
		if v, ok := o.Get("body"); ok {
			if f.Reset {
				p.d.Errorf(v, "a reset connection sends no body")
			}
			f.Body, _ = p.d.Text(v, "the error's body")
		}
		total += f.Rate
		out = append(out, f)
	}
	if total > 1+1e-9 {
		p.d.Errorf(n, "the error rates add up to %s, more than 100%%", strconv.FormatFloat(total*100, 'g', 4, 64)+"%")
	}
	return out
}

// rate reads a share: 0.01 or 1%.
func (p *configParser) rate(n yamldoc.Node) (float64, bool) {
	s, ok := p.d.Str(n, "a share like 1% or 0.01")
	if !ok {
		return 0, false
	}
	pct := strings.HasSuffix(s, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if pct {
		f /= 100
	}
	if err != nil || f < 0 || f > 1 || f != f {
		p.d.Errorf(n, "bad rate %q: a share from 0 to 1, or a percentage like 1%%", s)
		return 0, false
	}
	return f, true
}

// bandwidth reads a rate like 1MB/s or 512KiB/s.
func (p *configParser) bandwidth(n yamldoc.Node) float64 {
	if n.IsNull() {
		return 0
	}
	s, ok := p.d.Str(n, "a rate like 1MB/s or 512KiB/s")
	if !ok {
		return 0
	}
	num, perSecond := strings.CutSuffix(strings.TrimSpace(s), "/s")
	v, ok := yamldoc.ParseSize(num)
	if !perSecond || !ok || v <= 0 {
		p.d.Errorf(n, "bad bandwidth %q: bytes per second like 1MB/s, 512KiB/s or 100000B/s", s)
		return 0
	}
	if v < minBandwidth {
		p.d.Errorf(n, "bandwidth %q is below the mock's floor of 1 B/s (which sends 1 kB in 17 minutes); to hold a response, use latency:", s)
		return 0
	}
	return v
}

// isToken reports whether s is an HTTP token, as a method must be.
func isToken(s string) bool {
	for _, r := range s {
		if !(('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return s != ""
}

// Package openapi imports an API description — OpenAPI 3.0 or 3.1, or
// Swagger 2.0 — into a test with one request step per operation, its
// parameters and body from the spec's examples or made up from its
// schemas, named by its path template, checked on its documented success.
package openapi

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// swagger2 finds a Swagger 2.0 document's version key.
var swagger2 = regexp.MustCompile(`(?m)^\s*["']?swagger["']?\s*:\s*["']?2`)

// Import reads the spec in data, named name; baseURL, when not empty,
// replaces the spec's server.
func Import(data []byte, name, baseURL string) (*importer.Test, error) {
	doc, r, version, order, err := load(data)
	if err != nil {
		return nil, err
	}
	t := &importer.Test{Source: fmt.Sprintf("the %s spec %s", version, name)}
	if doc.Info != nil && doc.Info.Title != "" {
		t.Source += fmt.Sprintf(" (%s %s)", doc.Info.Title, doc.Info.Version)
		t.Name = sanitize(doc.Info.Title)
	}
	if t.Name == "" {
		t.Name = "openapi"
	}
	t.BaseURL = base(doc, baseURL)
	ops, err := operations(doc, r, order)
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("the spec has no operations under paths")
	}
	var flow []importer.Step
	sp := newSampler(r)
	for _, op := range ops {
		st, err := step(doc, op, t, sp)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", op.method, op.path, err)
		}
		flow = append(flow, st)
		for _, name := range sortedKeys(op.o.Callbacks) {
			t.NotConverted = append(t.NotConverted, fmt.Sprintf("%s %s: its callback %s (the API calls it; a test does not)", op.method, op.path, name))
		}
	}
	t.Headers, flow = importer.HoistHeaders(flow)
	t.Scenarios = []*importer.Scenario{{Name: "api", Load: importer.DefaultLoad(), Flow: flow}}
	t.Notes = append(t.Notes,
		"One step per operation, in the spec's order; parameters and bodies from its examples, else made up from its schemas.",
		"Each step is named by its path template and checks the documented success status. Credentials come from the",
		"environment: -e API_KEY=... for API keys, -e TOKEN=... for bearer and OAuth2 tokens, -e BASIC_AUTH=<base64> for basic.")
	if isOpenAPI31OrLater(doc.OpenAPI) && len(doc.Webhooks) > 0 {
		t.NotConverted = append(t.NotConverted, units.CountOf(int64(len(doc.Webhooks)), "webhook", "webhooks")+" (the API calls them; a test does not)")
	}
	return t, nil
}

// load parses a spec of any supported version into the OpenAPI 3 model,
// and returns the order its operations are written in.
func load(data []byte) (*document, *refs, string, map[string]int, error) {
	if looksJSON(data) { // before the JSON reader, which refuses past 10,000 levels as "not JSON"
		if err := checkNesting(data, true); err != nil {
			return nil, nil, "", nil, err
		}
	}
	js, err := toJSON(data)
	if err != nil {
		return nil, nil, "", nil, fmt.Errorf("not YAML or JSON: %v", err)
	}
	if err := checkNesting(js, false); err != nil {
		return nil, nil, "", nil, err
	}
	order := operationOrder(js)
	if n := countOperations(order); n > maxOperations {
		return nil, nil, "", nil, fmt.Errorf("the spec has %s operations; a test file holds far fewer steps (about 5,000), so an import reads specs of at most %s",
			units.Count(int64(n)), units.Count(maxOperations))
	}
	v2 := swagger2.Match(data)
	doc, r, err := parse(js, data)
	var re *refError
	if errors.As(err, &re) && re.external() && !v2 {
		// OpenAPI 3.1 schemas may be referred to by their $id; made local, they resolve.
		if local, ok := localizeIDs(js); ok {
			doc, r, err = parse(local, data)
		}
	}
	switch {
	case errors.As(err, &re):
		return nil, nil, "", nil, re
	case err != nil && v2:
		return nil, nil, "", nil, fmt.Errorf("not a Swagger 2.0 document: %v", err)
	case err != nil:
		return nil, nil, "", nil, fmt.Errorf("not an OpenAPI 3 or Swagger 2.0 document: %v", err)
	}
	if v2 {
		if err := fromSwagger2(doc, r); err != nil {
			return nil, nil, "", nil, fmt.Errorf("cannot convert the Swagger 2.0 document: %v", err)
		}
		return doc, r, "Swagger 2.0", order, nil
	}
	if doc.OpenAPI == "" {
		return nil, nil, "", nil, fmt.Errorf("not an OpenAPI document: no openapi: or swagger: version")
	}
	return doc, r, "OpenAPI " + doc.OpenAPI, order, nil
}

// parse reads the spec's JSON (js, from the text data) into the model and
// checks its $refs.
func parse(js, data []byte) (*document, *refs, error) {
	var doc document
	if err := json.Unmarshal(js, &doc); err != nil {
		return nil, nil, explainJSON(err)
	}
	r, err := newRefs(js, data)
	if err != nil {
		return nil, nil, err
	}
	return &doc, r, nil
}

// maxOperations is the most operations a spec may have: one step each, and
// a test file holds about 5,000 steps; counted before the spec is read
// into its types, which take about 10 KB an operation.
const maxOperations = 10000

// countOperations counts the operations (HTTP methods) in order.
func countOperations(order map[string]int) int {
	n := 0
	for k := range order {
		_, method, _ := strings.Cut(k, " ")
		if slices.Contains(methodOrder, strings.ToUpper(method)) {
			n++
		}
	}
	return n
}

// base is the test's base URL: the flag's, or the first server's (its
// variables at their defaults), either way overridable by BASE_URL.
func base(doc *document, flag string) string {
	if flag != "" {
		return `{{ env("BASE_URL", "` + importer.Lit(strings.TrimRight(flag, "/")) + `") }}`
	}
	server := ""
	if len(doc.Servers) > 0 && doc.Servers[0] != nil {
		s := doc.Servers[0]
		server = s.URL
		for name, v := range s.Variables {
			if v != nil {
				server = strings.ReplaceAll(server, "{"+name+"}", v.Default)
			}
		}
	}
	server = strings.TrimRight(server, "/")
	u, err := url.Parse(server)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		// A relative server (/api/v3) is under wherever the API is served.
		path := ""
		if err == nil && strings.HasPrefix(u.Path, "/") {
			path = u.Path
		}
		return `{{ env("BASE_URL", "http://127.0.0.1:8080") }}` + importer.Lit(path)
	}
	return `{{ env("BASE_URL", "` + importer.Lit(server) + `") }}`
}

// op is one operation of the spec.
type op struct {
	path, method string
	item         *pathItem
	o            *operation
	at           int // where the spec writes it; -1 when unknown
}

var methodOrder = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"}

// operations lists the spec's operations in the order it writes them
// (paths by name and methods in a fixed order when it is unknown).
func operations(doc *document, r *refs, order map[string]int) ([]op, error) {
	var out []op
	for path, item := range doc.Paths {
		item, err := r.pathItem(item)
		if err != nil {
			return nil, fmt.Errorf("paths: %s: %w", path, err)
		}
		if item == nil {
			continue
		}
		for method, o := range item.operations() {
			at, ok := order[path+" "+strings.ToLower(method)]
			if !ok {
				at = -1
			}
			out = append(out, op{path: path, method: strings.ToUpper(method), item: item, o: o, at: at})
		}
	}
	slices.SortFunc(out, func(a, b op) int {
		if a.at >= 0 && b.at >= 0 {
			return cmp.Compare(a.at, b.at)
		}
		return cmp.Or(cmp.Compare(a.path, b.path), cmp.Compare(slices.Index(methodOrder, a.method), slices.Index(methodOrder, b.method)))
	})
	return out, nil
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// step builds the request of one operation.
func step(doc *document, p op, t *importer.Test, sp *sampler) (importer.Step, error) {
	where := p.method + " " + p.path
	st := importer.Step{Method: p.method}
	if p.o.Summary != "" {
		st.Comment = p.o.Summary
	}
	params, order, err := parameters(p, sp.refs)
	if err != nil {
		return st, err
	}
	var failed error
	value := func(prm *parameter) string {
		v, err := paramValue(prm, sp)
		if err != nil && failed == nil {
			failed = fmt.Errorf("parameter %s: %w", prm.Name, err)
		}
		return v
	}
	path := pathParam.ReplaceAllStringFunc(p.path, func(m string) string {
		name := m[1 : len(m)-1]
		if prm, ok := params["path:"+name]; ok {
			return url.PathEscape(value(prm))
		}
		return "1"
	})
	var query []string
	for _, k := range order {
		prm := params[k]
		switch prm.In {
		case "query":
			if !prm.Required && !hasExample(prm, sp.refs) {
				continue
			}
			query = append(query, url.QueryEscape(prm.Name)+"="+url.QueryEscape(value(prm)))
		case "header":
			switch strings.ToLower(prm.Name) {
			case "accept", "content-type", "authorization":
				continue
			}
			if prm.Required || hasExample(prm, sp.refs) {
				st.Headers = append(st.Headers, importer.Header{Name: prm.Name, Value: importer.Lit(value(prm))})
			}
		case "cookie":
			if prm.Required {
				st.Headers = append(st.Headers, importer.Header{Name: "Cookie", Value: importer.Lit(prm.Name + "=" + value(prm))})
			}
		}
	}
	if failed != nil {
		return st, failed
	}
	var keys []string // templates: the API keys sent in the query
	if err := security(doc, sp.refs, p.o, &st, &keys); err != nil {
		return st, err
	}
	if len(query) > 0 {
		path += "?" + strings.Join(query, "&")
	}
	st.Path = importer.Lit(path) // literal text: braces in the spec's values are escaped
	if len(keys) > 0 {
		sep := "?"
		if len(query) > 0 {
			sep = "&"
		}
		st.Path += sep + strings.Join(keys, "&") // already templates: escaping them sent "{{ env(...) }}" as text, an invalid URL
	}
	if strings.SplitN(path, "?", 2)[0] != p.path || len(query) > 0 || len(keys) > 0 {
		st.Name = importer.Lit(p.path)
	}
	if err := body(p, &st, t, where, sp); err != nil {
		return st, fmt.Errorf("request body: %w", err)
	}
	if codes := successes(p.o); len(codes) > 0 {
		st.Check = []importer.Check{{Status: codes}}
	}
	return st, nil
}

// parameters are an operation's parameters by "in:name", and their order:
// the path's, then the operation's, which override them.
func parameters(p op, r *refs) (map[string]*parameter, []string, error) {
	params := map[string]*parameter{}
	var order []string
	for _, list := range [][]*parameter{p.item.Parameters, p.o.Parameters} {
		for _, ref := range list {
			prm, err := r.parameter(ref)
			if err != nil {
				return nil, nil, err
			}
			if prm == nil {
				continue
			}
			k := prm.In + ":" + prm.Name
			if _, seen := params[k]; !seen {
				order = append(order, k)
			}
			params[k] = prm // an operation's parameter overrides its path's
		}
	}
	return params, order, nil
}

// hasExample reports whether an optional parameter has a value the spec chose.
func hasExample(p *parameter, r *refs) bool {
	if p.Example != nil || len(p.Examples) > 0 {
		return true
	}
	s, err := r.schema(p.Schema)
	return err == nil && s != nil && (s.Example != nil || s.Default != nil)
}

// paramValue is a parameter's example, or a value made up from its schema.
func paramValue(p *parameter, sp *sampler) (string, error) {
	v, err := sp.chosen(p.Example, p.Examples)
	if err != nil {
		return "", err
	}
	if v != nil {
		return scalar(v), sp.use(jsonSize(v, plan.MaxFileSize))
	}
	m, err := sp.value(p.Schema, 0, false)
	if err == nil {
		err = sp.use(m.size)
	}
	if err != nil {
		return "", err
	}
	v = m.v
	if list, ok := v.([]any); ok { // an array parameter, exploded as the first item
		if len(list) == 0 {
			return "", nil
		}
		v = list[0]
	}
	return scalar(v), nil
}

// scalar writes a value as parameter text.
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

// successes are the statuses a check accepts: the lowest documented 2xx,
// or every 2xx the spec writes as 2XX; none when it documents only default.
func successes(o *operation) []int {
	best := 0
	for code := range o.Responses {
		if code == "2XX" || code == "2xx" {
			return []int{200, 201, 202, 204}
		}
		if n, err := strconv.Atoi(code); err == nil && n >= 200 && n < 300 && (best == 0 || n < best) {
			best = n
		}
	}
	if best == 0 {
		return nil
	}
	return []int{best}
}

// security adds the operation's credentials, from the environment: headers
// to st, and query parameters (templates) to query.
func security(doc *document, r *refs, o *operation, st *importer.Step, query *[]string) error {
	var reqs []map[string][]string
	if doc.Security != nil {
		reqs = *doc.Security
	}
	if o.Security != nil {
		reqs = *o.Security
	}
	if len(reqs) == 0 || doc.Components == nil {
		return nil
	}
	for _, name := range sortedKeys(reqs[0]) {
		s, err := r.securityScheme(doc.Components.SecuritySchemes[name])
		if err != nil {
			return fmt.Errorf("security scheme %s: %w", name, err)
		}
		if s == nil {
			continue
		}
		switch {
		case s.Type == "apiKey" && s.In == "header":
			st.Headers = append(st.Headers, importer.Header{Name: s.Name, Value: `{{ env("API_KEY", "") }}`})
		case s.Type == "apiKey" && s.In == "query":
			*query = append(*query, importer.Lit(url.QueryEscape(s.Name))+`={{ env("API_KEY", "") }}`)
		case s.Type == "apiKey" && s.In == "cookie":
			st.Headers = append(st.Headers, importer.Header{Name: "Cookie", Value: importer.Lit(s.Name) + `={{ env("API_KEY", "") }}`})
		case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
			st.Headers = append(st.Headers, importer.Header{Name: "Authorization", Value: `Basic {{ env("BASIC_AUTH", "") }}`})
		case s.Type == "http" || s.Type == "oauth2" || s.Type == "openIdConnect":
			st.Headers = append(st.Headers, importer.Header{Name: "Authorization", Value: `Bearer {{ env("TOKEN", "") }}`})
		}
	}
	return nil
}

// body adds the operation's request body: JSON, a form, or text.
func body(p op, st *importer.Step, t *importer.Test, where string, sp *sampler) error {
	rb, err := sp.refs.requestBody(p.o.RequestBody)
	if err != nil || rb == nil {
		return err
	}
	content := rb.Content
	types := sortedKeys(content)
	pick := func(match func(string) bool) (string, *mediaType) {
		for _, ct := range types {
			if match(ct) {
				return ct, content[ct]
			}
		}
		return "", nil
	}
	if ct, m := pick(func(ct string) bool { return ct == "application/json" || strings.HasSuffix(ct, "+json") }); m != nil {
		v, err := sp.example(m, true)
		if err != nil {
			return err
		}
		st.JSON = v
		if ct != "application/json" {
			st.Headers = append(st.Headers, importer.Header{Name: "Content-Type", Value: ct})
		}
		return nil
	}
	if _, m := pick(func(ct string) bool { return ct == "application/x-www-form-urlencoded" }); m != nil {
		v, err := sp.example(m, false)
		if err != nil {
			return err
		}
		switch obj := v.(type) {
		case map[string]any: // the spec's own example
			for _, k := range sortedKeys(obj) {
				st.Form = append(st.Form, importer.KV{Key: k, Value: importer.Lit(scalar(obj[k]))})
			}
		case importer.Object: // one made up from the schema
			for _, m := range obj {
				st.Form = append(st.Form, importer.KV{Key: m.Key, Value: importer.Lit(scalar(m.Value))})
			}
		}
		if len(st.Form) == 0 {
			st.Body, st.HasBody = "", true
			st.Headers = append(st.Headers, importer.Header{Name: "Content-Type", Value: "application/x-www-form-urlencoded"})
		}
		return nil
	}
	if ct, m := pick(func(ct string) bool { return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "xml") }); m != nil {
		text := ""
		v, err := sp.example(m, false)
		if err != nil {
			return err
		}
		if s, ok := v.(string); ok {
			text = s
		} else {
			t.NotConverted = append(t.NotConverted, fmt.Sprintf("%s: its %s body (sent empty: write one)", where, ct))
		}
		st.Body, st.HasBody = importer.Lit(text), true
		st.Headers = append(st.Headers, importer.Header{Name: "Content-Type", Value: ct})
		return nil
	}
	if len(types) > 0 {
		t.NotConverted = append(t.NotConverted, fmt.Sprintf("%s: its %s body (sent empty: a test file holds text)", where, types[0]))
		st.Body, st.HasBody = "", true
		st.Headers = append(st.Headers, importer.Header{Name: "Content-Type", Value: types[0]})
	}
	return nil
}

// example is a media type's example, or one made up from its schema,
// charged to what the test may take; lit makes its strings literal
// template text.
func (sp *sampler) example(m *mediaType, lit bool) (any, error) {
	v, err := sp.chosen(m.Example, m.Examples)
	if err != nil {
		return nil, err
	}
	if v != nil {
		f, _ := fixed(v, lit)
		return f.v, sp.use(f.size)
	}
	made, err := sp.value(m.Schema, 0, lit)
	if err != nil {
		return nil, err
	}
	return made.v, sp.use(made.size)
}

// chosen is the value the spec chose: its example, else the first of its
// named examples (by name) that has a value; nil when it chose none.
func (sp *sampler) chosen(v any, examples map[string]*example) (any, error) {
	for _, name := range sortedKeys(examples) {
		if v != nil {
			break
		}
		ex, err := sp.refs.example(examples[name])
		if err != nil {
			return nil, fmt.Errorf("example %s: %w", name, err)
		}
		if ex != nil {
			v = ex.Value
		}
	}
	return v, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// sanitize makes a test name from a title.
func sanitize(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r == '.' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-.")
}

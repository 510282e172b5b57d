package openapi

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/plan"
)

// TestImportSecuritySchemes: every kind of security scheme becomes a value
// from -e that the imported test really sends. An API key in the query was
// written as escaped text ({{ "{{" }} env(...) }}), so every request failed
// "invalid URL" while validate said ok.
func TestImportSecuritySchemes(t *testing.T) {
	const spec = `openapi: 3.0.0
info: {title: T, version: '1'}
servers: [{url: 'http://127.0.0.1:9'}]
components:
  securitySchemes:
    q: {type: apiKey, in: query, name: api_key}
    h: {type: apiKey, in: header, name: X-Key}
    c: {type: apiKey, in: cookie, name: sid}
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: basic}
paths:
  /q: {get: {security: [{q: []}], parameters: [{name: n, in: query, required: true, schema: {type: integer, example: 3}}], responses: {'200': {description: ok}}}}
  /q2: {get: {security: [{q: []}], responses: {'200': {description: ok}}}}
  /h: {get: {security: [{h: []}], responses: {'200': {description: ok}}}}
  /c: {get: {security: [{c: []}], responses: {'200': {description: ok}}}}
  /b: {get: {security: [{bearer: []}], responses: {'200': {description: ok}}}}
  /basic: {get: {security: [{basic: []}], responses: {'200': {description: ok}}}}
`
	tst, err := Import([]byte(spec), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	env := map[string]string{"API_KEY": "k3y", "TOKEN": "t0k", "BASIC_AUTH": "dTpw"}
	p, err := plan.Parse("t.yaml", out, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]string{}
	plan.Walk(p.Scenarios[0].Flow, func(st *plan.Step) {
		r := st.Request
		u, _ := r.URL.Const() // env lookups are read when the test is: the values are constant
		line := u
		for _, h := range r.Headers {
			v, _ := h.Value.Const()
			line += " " + h.Name + "=" + v
		}
		got[r.Method+" "+strings.TrimPrefix(strings.SplitN(u, "?", 2)[0], "http://127.0.0.1:9")] = line
	})
	for ep, want := range map[string]string{
		"GET /q":     "http://127.0.0.1:9/q?n=3&api_key=k3y",
		"GET /q2":    "http://127.0.0.1:9/q2?api_key=k3y",
		"GET /h":     "X-Key=k3y",
		"GET /c":     "Cookie=sid=k3y",
		"GET /b":     "Authorization=Bearer t0k",
		"GET /basic": "Authorization=Basic dTpw",
	} {
		if !strings.Contains(got[ep], want) {
			t.Errorf("%s sends %q, want %q in it\n%s", ep, got[ep], want, out)
		}
	}
}

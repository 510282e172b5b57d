package openapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/testkit"
)

// fanOut is a spec whose schemas refer to each other in a tree, width
// properties a level, levels deep (no cycle): a value made up from the
// first is width^levels values when each use is expanded.
func fanOut(levels, width int, swagger2, asParam bool) string {
	var b strings.Builder
	ref, where, in := "#/components/schemas/L0", "components:\n  schemas:\n", "    "
	if swagger2 {
		ref, where, in = "#/definitions/L0", "definitions:\n", "  "
	}
	switch {
	case swagger2:
		b.WriteString("swagger: '2.0'\ninfo: {title: fan, version: '1'}\nconsumes: [application/json]\npaths:\n  /x:\n    post:\n      parameters:\n        - {in: body, name: b, schema: {$ref: '" + ref + "'}}\n")
	case asParam:
		b.WriteString("openapi: 3.0.3\ninfo: {title: fan, version: '1'}\npaths:\n  /x:\n    get:\n      parameters:\n        - {in: query, name: q, required: true, schema: {$ref: '" + ref + "'}}\n")
	default:
		b.WriteString("openapi: 3.0.3\ninfo: {title: fan, version: '1'}\npaths:\n  /x:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '" + ref + "'}\n")
	}
	b.WriteString("      responses:\n        '200': {description: ok}\n" + where)
	next := strings.TrimSuffix(ref, "0")
	for l := range levels {
		fmt.Fprintf(&b, "%sL%d:\n%s  type: object\n%s  properties:\n", in, l, in, in)
		for p := range width {
			if l+1 < levels {
				fmt.Fprintf(&b, "%s    p%d: {$ref: '%s%d'}\n", in, p, next, l+1)
			} else {
				fmt.Fprintf(&b, "%s    p%d: {type: string}\n", in, p)
			}
		}
	}
	return b.String()
}

// deepSpec is a spec whose body schema nests levels objects deep, inline.
func deepSpec(levels int, swagger2 bool) string {
	s := strings.Repeat("{type: object, properties: {a: ", levels) + "{type: string}" + strings.Repeat("}}", levels)
	if swagger2 {
		return "swagger: '2.0'\ninfo: {title: deep, version: '1'}\npaths:\n  /x:\n    post:\n      parameters:\n        - {in: body, name: b, schema: " + s + "}\n      responses:\n        '200': {description: ok}\n"
	}
	return "openapi: 3.0.3\ninfo: {title: deep, version: '1'}\npaths:\n  /x:\n    post:\n      requestBody: {content: {application/json: {schema: " + s + "}}}\n      responses:\n        '200': {description: ok}\n"
}

// manyUses is a spec of n operations whose bodies each use one schema of
// width properties of 1 KB examples: each fits, together they do not.
func manyUses(n, width int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: many, version: '1'}\npaths:\n")
	for i := range n {
		fmt.Fprintf(&b, "  /x%d:\n    post:\n      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Big'}}}}\n      responses: {'200': {description: ok}}\n", i)
	}
	b.WriteString("components:\n  schemas:\n    Big:\n      type: object\n      properties:\n")
	for p := range width {
		fmt.Fprintf(&b, "        p%d: {type: string, example: %s}\n", p, strings.Repeat("x", 1000))
	}
	return b.String()
}

// minified is a spec of n operations written as JSON on one line, as
// generators and minifiers write it.
func minified(n int) string {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"min","version":"1"},"paths":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"/p%d/{id}":{"get":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}}],"responses":{"200":{"description":"ok"}}}}`, i)
	}
	b.WriteString("}}")
	return b.String()
}

// hostileSpecs are made when a test runs, not when the package loads.
var hostileSpecs = []struct {
	name string
	spec func() string
	want string
}{
	{"fan-out 5 levels of 30", func() string { return fanOut(5, 30, false, false) }, "POST /x: request body: a value made up from the schema L1 would take more than 10 MiB"},
	{"fan-out 8 levels of 30", func() string { return fanOut(8, 30, false, false) }, "POST /x: request body: a value made up from the schema L0 would take more than 10 MiB"}, // past 5 levels optional properties are left out, so L1 fits,
	{"fan-out in Swagger 2.0", func() string { return fanOut(6, 30, true, false) }, "a value made up from the schema"},
	{"fan-out in a query parameter", func() string { return fanOut(6, 30, false, true) }, "GET /x: parameter q: a value made up from the schema"},
	{"1,000 levels of Swagger 2.0", func() string { return deepSpec(1000, true) }, "the spec nests 2,007 levels deep; an import reads specs that nest at most 64 levels"},
	{"20,000 levels", func() string { return deepSpec(20000, false) }, "not YAML or JSON: the spec nests deeper than 4,000 levels (from line 6, column 62023); an import reads specs that nest at most 64 levels"},
	// the JSON reader refuses past 10,000 levels, and the spec was then read as YAML: "not YAML or JSON"
	{"900,000 levels of JSON", func() string {
		return `{"openapi":"3.0.3","info":{"title":"d","version":"1"},"paths":{"/a":{"get":{"x":` + strings.Repeat("[", 900000) + strings.Repeat("]", 900000) + "}}}}"
	}, "the spec nests 900,004 levels deep (deeper than 64 from line 1, column 141); an import reads specs that nest at most 64 levels"},
	{"400 uses of a 100 KB schema", func() string { return manyUses(400, 100) }, "the values made up for the test, this one included, would take more than 10 MiB"},
	{"30,000 operations of minified JSON", func() string { return minified(30000) }, "the spec has 30,000 operations; a test file holds far fewer steps (about 5,000), so an import reads specs of at most 10,000"},
	{"a 2 MB line of YAML", func() string { return "openapi: 3.0.3\nx: [" + strings.Repeat("a, ", 700000) + "a]\n" }, "not YAML or JSON: line 2 is 2.1 MB long; an import reads YAML lines of at most 1 MiB"},
}

// TestImportOpenAPIHostileSpecsAreBounded: a spec whose schemas fan out
// (a 7 KB spec made 1.5 GB in 53 s; 8 levels, 22.5 GB) or nest deep (1,000
// levels of Swagger 2.0: 7 s; 10,000: 4 GB) is refused with an error naming
// the schema or the depth, each in a process that holds little memory.
func TestImportOpenAPIHostileSpecsAreBounded(t *testing.T) {
	if arg, ok := testkit.PeakChild(); ok {
		for _, h := range hostileSpecs {
			if h.name == arg {
				_, err := Import([]byte(h.spec()), "hostile.yaml", "")
				if err == nil || !strings.Contains(err.Error(), h.want) {
					t.Fatalf("error %v, want %q", err, h.want)
				}
			}
		}
		testkit.ReportPeak()
		return
	}
	for _, h := range hostileSpecs {
		t.Run(h.name, func(t *testing.T) {
			if peak := testkit.PeakMemory(t, h.name, 60*time.Second); peak > 128<<20 {
				t.Errorf("the import held %d MiB at its peak, want at most 128 MiB", peak>>20)
			}
		})
	}
}

// TestImportOpenAPISharedSchemaIsWrittenAlike: a schema used by several
// operations is made up once and shared; each body is written the same,
// its literal text escaped once (the spec's values are not changed).
func TestImportOpenAPISharedSchemaIsWrittenAlike(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: shared, version: '1'}
paths:
  /a:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}}
      responses: {'200': {description: ok}}
  /b:
    put:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/S'}}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    S:
      type: object
      properties:
        t: {type: string, example: 'a {{b}}'}
        l: {type: array, items: {type: string, example: '{{c}}'}}
`
	tst, err := Import([]byte(spec), "shared.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	body := `json: {"l": ["{{ \"{{\" }}c}}"], "t": "a {{ \"{{\" }}b}}"}`
	if n := strings.Count(string(out), body); n != 2 {
		t.Errorf("%d bodies written %s, want 2:\n%s", n, body, out)
	}
}

package openapi

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// specWith is an OpenAPI 3 spec whose one operation posts a body of the
// schema at ref, with the components written after it.
func specWith(ref, comps string) string {
	return "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /x:\n    post:\n" +
		"      requestBody: {content: {application/json: {schema: {$ref: '" + ref + "'}}}}\n" +
		"      responses: {'200': {description: ok}}\ncomponents:\n" + comps
}

// TestImportOpenAPIRefErrors: a $ref that loops, is missing, points
// outside the spec or passes through too many others is refused, naming
// the reference, its line and the field it is written at.
func TestImportOpenAPIRefErrors(t *testing.T) {
	var chain strings.Builder
	chain.WriteString("  schemas:\n")
	for i := range 40 {
		chain.WriteString("    C" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + ": {$ref: '#/components/schemas/C" + string(rune('0'+(i+1)/10)) + string(rune('0'+(i+1)%10)) + "'}\n")
	}
	chain.WriteString("    C40: {type: string}\n")
	for _, c := range []struct{ name, spec, want string }{
		{"a loop of $refs", specWith("#/components/schemas/A", "  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n"),
			`$ref "#/components/schemas/A" refers back to itself through $refs (#/components/schemas/A → #/components/schemas/B → #/components/schemas/A) (at paths./x.post.requestBody.content.application/json.schema)`},
		{"a $ref to itself", specWith("#/components/schemas/A", "  schemas:\n    A: {$ref: '#/components/schemas/A'}\n"), "refers back to itself"},
		{"a missing schema", specWith("#/components/schemas/Nope", "  schemas: {}\n"),
			`line 6: $ref "#/components/schemas/Nope" does not resolve (no such component in the spec) (at paths./x.post.requestBody.content.application/json.schema)`},
		{"a missing property schema", specWith("#/components/schemas/A", "  schemas:\n    A: {type: object, properties: {b: {$ref: '#/components/schemas/B'}}}\n"),
			`line 10: $ref "#/components/schemas/B" does not resolve (no such component in the spec) (at components.schemas.A.properties.b)`},
		{"not a pointer", specWith("#components", "  schemas: {}\n"), `$ref "#components" does not resolve (a local $ref is #/`},
		{"another file", specWith("other.yaml#/A", "  schemas: {}\n"), `line 6: $ref "other.yaml#/A" is an external reference`},
		{"a URL", specWith("https://example.com/s.json", "  schemas: {}\n"), "is an external reference"},
		{"41 $refs in a row", specWith("#/components/schemas/C00", chain.String()), "passes through more than 32 $refs in a row"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import([]byte(c.spec), "s.yaml", "")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestImportOpenAPIRefsResolve: a schema that refers to itself through its
// properties (a tree) imports; $refs that escape ~1 and point into paths,
// and a $ref chain that ends in a value, resolve; a "$ref" inside an
// example is the example's data.
func TestImportOpenAPIRefsResolve(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /a:
    post:
      parameters: [{$ref: '#/paths/~1b/get/parameters/0'}]
      requestBody: {$ref: '#/components/requestBodies/Node'}
      responses: {'200': {description: ok}}
  /b:
    get:
      parameters: [{name: q, in: query, required: true, schema: {$ref: '#/components/schemas/Q'}}]
      responses: {'200': {description: ok}}
components:
  requestBodies:
    Node: {content: {application/json: {schema: {$ref: '#/components/schemas/Node'}}}}
  schemas:
    Q: {$ref: '#/components/schemas/Q2'}
    Q2: {type: string, example: {$ref: not-a-ref}}
    Node:
      type: object
      required: [name]
      properties:
        name: {type: string, minLength: 8}
        kids: {type: array, items: {$ref: '#/components/schemas/Node'}}
`
	tst, err := Import([]byte(spec), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, w := range []string{"post: '/a?q=%7B%22%24ref%22%3A%22not-a-ref%22%7D'", `"name": "stringgg"`, `"kids": [{"kids": [{`} {
		if !strings.Contains(string(out), w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
}

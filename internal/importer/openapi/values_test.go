package openapi

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// TestImportOpenAPIMadeUpValuesFit: a value made up from a schema fits it:
// bounds, exclusive bounds (3.0 flags, 3.1 values), lengths, simple
// patterns, formats; a required scalar deep in a recursive schema gets a
// value, not null (a trial's order wrote "qty": null for an integer of
// minimum 1), and an optional property past the depth is left out.
func TestImportOpenAPIMadeUpValuesFit(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: T, version: '1'}
paths:
  /o:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}}
      responses: {'201': {description: ok}}
  /v:
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/V'}}}}
      responses: {'201': {description: ok}}
components:
  schemas:
    Order:
      type: object
      required: [qty, parent]
      properties:
        qty: {type: integer, minimum: 1}
        parent: {$ref: '#/components/schemas/Order'}
        note: {$ref: '#/components/schemas/Order'}
    V:
      type: object
      properties:
        a: {type: integer, minimum: 3.2}
        b: {type: integer, exclusiveMinimum: 5}
        c: {type: number, maximum: -2}
        d: {type: integer, minimum: 1, exclusiveMaximum: 2}
        e: {type: string, maxLength: 3}
        f: {type: string, pattern: '^[0-9]+$'}
        g: {type: string, format: ipv4}
        h: {type: string, minLength: 9, pattern: '^[a-z]+$'}
`
	tst, err := Import([]byte(spec), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	text := string(out)
	if strings.Contains(text, `"qty": null`) || !strings.Contains(text, `"parent": {"parent": null, "qty": 1}`) {
		t.Errorf("a required integer made up null, or an optional property past the depth kept:\n%s", out)
	}
	want := `json: {"a": 4, "b": 6, "c": -2, "d": 1, "e": "str", "f": "1", "g": "127.0.0.1", "h": "stringggg"}`
	if !strings.Contains(text, want) {
		t.Errorf("lacks %s:\n%s", want, out)
	}
}

package openapi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

func TestImportSamples(t *testing.T) {
	for _, c := range []struct {
		file  string
		steps int
		want  []string
	}{
		{"petstore-v3.yaml", 19, []string{
			`base_url: '{{ env("BASE_URL", "https://petstore3.swagger.io/api/v3") }}'`,
			"- put: /pet\n", // the spec's order: put comes first in its /pet
			`json: {"category": {"id": 1, "name": "Dogs"}, "id": 10, "name": "doggie"`,
			"get: '/pet/findByStatus?status=available'",
			"name: '/pet/{petId}'",
			"get: /pet/1\n", // a made-up id (the spec gives none)
			`api_key: '{{ env("API_KEY", "") }}'`,
			`Authorization: 'Bearer {{ env("TOKEN", "") }}'`,
			"- {status: 200}",
			"uploadImage: its application/octet-stream body",
		}},
		{"petstore-v31.yaml", 0, []string{"OpenAPI 3.1.0", `"name": "doggie"`, "1 webhook ("}},
		{"petstore-v3.json", 0, []string{`base_url: '{{ env("BASE_URL", "http://petstore.swagger.io/v1") }}'`, "get: /pets", "- {status: 201}"}},
		{"petstore-swagger2.yaml", 3, []string{"Swagger 2.0", "get: /pets", "post: /pets", "get: /pets/string", "name: '/pets/{petId}'"}},
		// the API key in the query was escaped text, so every request failed "invalid URL"
		{"uber-v3.yaml", 5, []string{`- get: '/products?latitude=1.5&longitude=1.5&server_token={{ env("API_KEY", "") }}'`, "- get: /history\n"}},
		{"callback-v3.yaml", 1, []string{"- post: '/streams?callbackUrl=https%3A%2F%2Ftonys-server.com'", "POST /streams: its callback onData (the API calls it; a test does not)"}},
		// a form made up from its schema was sent empty (Content-Length 0)
		{"form-v3.yaml", 1, []string{"form:\n          name: 'Kim Lee'\n          qty: '3'\n"}},
		{"petstore-expanded-swagger2.json", 4, []string{"Swagger 2.0", `json: {"name": "string", "tag": "string"}`, "delete: /pets/1", "- {status: 204}"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("../testdata/openapi", c.file))
			if err != nil {
				t.Fatal(err)
			}
			tst, err := Import(data, c.file, "")
			if err != nil {
				t.Fatal(err)
			}
			out, err := importer.Render(tst, "t.yaml")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !strings.HasSuffix(string(out), "\n") || strings.HasSuffix(string(out), "\n\n") {
				t.Errorf("the test does not end in one newline: %q", out[max(0, len(out)-40):])
			}
			if c.steps > 0 && len(tst.Scenarios[0].Flow) != c.steps {
				t.Errorf("%d steps, want %d (one per operation)", len(tst.Scenarios[0].Flow), c.steps)
			}
			text := string(out) + strings.Join(tst.NotConverted, "\n")
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestImportBaseURLFlagAndErrors(t *testing.T) {
	spec := "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /x/{id}:\n    get:\n      parameters: [{name: id, in: path, required: true, schema: {type: string, enum: [a b]}}]\n      responses: {'2XX': {description: ok}}\n"
	tst, err := Import([]byte(spec), "s.yaml", "http://127.0.0.1:9/base/")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, w := range []string{`base_url: '{{ env("BASE_URL", "http://127.0.0.1:9/base") }}'`, "get: '/x/a%20b'", "- {status: [200, 201, 202, 204]}"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"not: a spec\n", "not an OpenAPI document"},
		{"openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n", "no operations"},
		{"openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /x:\n    get:\n      responses: {'200': {$ref: 'other.yaml#/r'}}\n", "external reference"},
		{"openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths:\n  /x:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n", `line 7: $ref "#/components/responses/Nope" does not resolve`},
	} {
		if _, err := Import([]byte(c.spec), "s.yaml", ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.spec, err, c.want)
		}
	}
}

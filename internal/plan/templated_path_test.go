package plan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestTemplatedPathJoinsByItsValue: a path that begins with a template (a
// CSV column of paths, or of full URLs) is joined to base_url by the value
// it renders, not by its source: "{{ path }}" with /products/1 was sent as
// GET //products/1, a full URL as GET /http://..., and a query: mapping
// after a value with a query as ?x=1?y=2 (an outside trial).
func TestTemplatedPathJoinsByItsValue(t *testing.T) {
	tests := []struct {
		name, base, get, query, value, want string
	}{
		{"a value with its slash", "http://127.0.0.1:1", "{{ path }}", "", "/products/1", "http://127.0.0.1:1/products/1"},
		{"a value without one", "http://127.0.0.1:1", "{{ path }}", "", "products/1", "http://127.0.0.1:1/products/1"},
		{"a base with a path and a slash", "http://127.0.0.1:1/api/", "{{ path }}", "", "/v1", "http://127.0.0.1:1/api/v1"},
		{"a full URL", "http://127.0.0.1:1", "{{ path }}", "", "http://127.0.0.1:2/full", "http://127.0.0.1:2/full"},
		{"a full URL in capitals", "http://127.0.0.1:1", "{{ path }}", "", "HTTPS://127.0.0.1:2/x", "HTTPS://127.0.0.1:2/x"},
		{"a full URL without base_url", "", "{{ path }}", "", "http://127.0.0.1:2/full", "http://127.0.0.1:2/full"},
		{"a query after a value with one", "http://127.0.0.1:1", "{{ path }}", "y: 2", "/a?x=1", "http://127.0.0.1:1/a?x=1&y=2"},
		{"a query after a value without", "http://127.0.0.1:1", "{{ path }}", "y: 2", "/a", "http://127.0.0.1:1/a?y=2"},
		{"more after the template", "http://127.0.0.1:1", "{{ path }}/reviews", "", "/products/1", "http://127.0.0.1:1/products/1/reviews"},
		{"a literal start, as before", "http://127.0.0.1:1", "/p/{{ path }}", "", "7", "http://127.0.0.1:1/p/7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte("path\n"+tt.value+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			src := "scenarios:\n  s:\n    vus: 1\n    iterations: 1\n    data: d.csv\n    flow:\n      - get: '" + tt.get + "'\n"
			if tt.query != "" {
				src += "        query: {" + tt.query + "}\n"
			}
			if tt.base != "" {
				src += "base_url: " + tt.base + "\n"
			}
			test := filepath.Join(dir, "t.yaml")
			if err := os.WriteFile(test, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := ParseFile(test, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := p.Scenarios[0]
			tc := &tmpl.Context{Vars: make([]string, len(s.Vars))}
			tc.Vars[0] = tt.value // the data column is slot 0
			if got := string(s.Flow[0].Request.URL.Render(nil, tc)); got != tt.want {
				t.Errorf("get: %s with path %q renders %s, want %s", tt.get, tt.value, got, tt.want)
			}
		})
	}
}

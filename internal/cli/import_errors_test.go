package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportErrorsNameTheFile: whatever the kind, an import that fails
// says which file, as given, and exits 2.
func TestImportErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ kind, file, text, want string }{
		{"har", "bad.har", `{"log": {"entries": [{"request": {"method": 5}}]}}`, "bad.har: not a HAR file: entry 1 (log.entries[0]) at line 1, column 45"},
		{"openapi", "bad.yaml", "openapi: 3.0.0\ninfo: {title: x, version: \"1\"}\npaths:\n  /a:\n    get:\n      responses: 5\n", "bad.yaml: not an OpenAPI 3 or Swagger 2.0 document"},
		{"k6", "bad.js", "import http from \"k6/http\";\nexport default function() { http.get(`${foo(}`); }\n", "bad.js: cannot parse the script as JavaScript"},
		{"curl", "bad.txt", "curl -X\n", "bad.txt: command 1: --request needs a value"},
	} {
		path := filepath.Join(dir, c.file)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := main("import", c.kind, path)
		if code != 2 || !strings.Contains(stderr, "import "+c.kind+": "+filepath.Join(dir, c.want)) {
			t.Errorf("%s: exit %d, %q; want exit 2 and %q", c.kind, code, stderr, c.want)
		}
	}
}

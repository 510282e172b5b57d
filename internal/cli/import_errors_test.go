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

// TestImportSaysTheLocalFilesItRead: the files a curl command copied into
// the test are said on standard error with their sizes, beside what was
// not converted; and a source larger than an import reads is refused, not
// cut where it would then fail to parse.
func TestImportSaysTheLocalFilesItRead(t *testing.T) {
	dir := t.TempDir()
	body := filepath.Join(dir, "body.json")
	os.WriteFile(body, []byte(`{"a": 1}`), 0o644)
	code, _, stderr := main("import", "curl", "curl http://h/x --data-binary @"+body, "--out", filepath.Join(dir, "t.yaml"))
	oneLine := strings.Join(strings.Fields(stderr), " ") // as wrapped to the terminal's width
	if want := "read into the test: " + body + " (8 bytes), command 1: the body, --data-binary"; code != 0 || !strings.Contains(oneLine, want) {
		t.Errorf("exit %d, stderr %q; want exit 0 and %q", code, stderr, want)
	}
	spec := filepath.Join(dir, "big.js")
	f, _ := os.Create(spec)
	f.Truncate(maxScript + 1) // sparse: nothing written
	f.Close()
	code, _, stderr = main("import", "k6", spec)
	if want := "big.js: more than 16 MiB; an import reads at most 16 MiB of its source"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}

// TestImportCurlFileNamedCurl: a file whose name starts with "curl"
// (curl-lines.txt) is read as a file of commands, not taken for one.
func TestImportCurlFileNamedCurl(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("curl-lines.txt", []byte("curl -H 'X-A: 1' http://h/a\ncurl -d x=1 http://h/b\n"), 0o644)
	code, stdout, stderr := main("import", "curl", "curl-lines.txt")
	if code != 0 || !strings.Contains(stdout, "- get: /a") || !strings.Contains(stdout, "- post: /b") {
		t.Errorf("exit %d, %s%s; want the two commands' steps", code, stdout, stderr)
	}
}

// TestImportCountsRequests: the line an import writes counts the
// requests, not the think, set: and add: steps beside them.
func TestImportCountsRequests(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("poll.js", []byte("import http from 'k6/http';\nimport { sleep } from 'k6';\nexport default function () {\n"+
		"  while (true) { const r = http.get('http://h/job'); if (r.status === 200) break; sleep(1); }\n}\n"), 0o644)
	code, stdout, stderr := main("import", "k6", "poll.js", "--out", "poll.yaml")
	if want := "1 scenario, 1 request step;"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d, %s%s; want %q", code, stdout, stderr, want)
	}
}

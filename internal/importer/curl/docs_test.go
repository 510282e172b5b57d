package curl

import (
	"os"
	"strings"
	"testing"
)

// TestImportCurlDocumentedLines imports the HTTP examples of curl's own
// manual (testdata/curl/curl-docs.txt): every one becomes a step that
// sends what curl sends. --url-query was taken for the URL (a GET of /
// with the real URL dropped) and --oauth2-bearer was left out.
func TestImportCurlDocumentedLines(t *testing.T) {
	text, err := os.ReadFile("../testdata/curl/curl-docs.txt")
	if err != nil {
		t.Fatal(err)
	}
	tst, out := render(t, string(text))
	if n := len(tst.Scenarios[0].Flow); n != 26 {
		t.Errorf("%d steps, want one per command, 26:\n%s", n, out)
	}
	if len(tst.NotConverted) > 0 {
		t.Errorf("not converted: %s", strings.Join(tst.NotConverted, "\n"))
	}
	for _, w := range []string{
		"X-First-Name: Joe", "body: 'name=curl&tool=cmdline'", "body: encodethis", "Authorization: 'Basic dXNlcjpzZWNyZXQ='",
		"- delete: /", "- get: '/?tool=curl&age=old'", "- head: '/?tool=curl'", `body: '{ "drink": "coffee" }'`,
		"Cookie: 'name=Jane'", "User-Agent: 'Agent 007'", "Authorization: 'Bearer mF_9.B5f-4.1JqM'", "Referer: 'https://fake.example'",
		"timeout: 2.92s", "- get: '/?name=val'", "- get: 'http://example.net/foo?encodethis'", "- get: '/?name=%20foo'",
		"Authorization: 'Basic bmFtZTpwYXNzd29yZA=='",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
}

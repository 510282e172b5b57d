package har

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportPublicRecordings imports mitmproxy's public HAR test files
// (testdata/har/mitmproxy, MIT): each becomes a test that validates and
// sends what the browser sent, a warm cache's 304 with the conditional
// headers that get it again, and a recording with a UTF-8 byte order mark
// as the same one without.
func TestImportPublicRecordings(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"chrome.har", []string{"- get: /\n", `if-none-match: 'W/"a1550c2bd25c5bcfef789d730f5bbddf"'`, "if-modified-since: 'Sat, 04 Mar 2023 18:02:08 GMT'", "- {status: 304}"}},
		{"charles.har", []string{"made by Charles Proxy", "- get: '/?='"}},
		{"head-content-length.har", []string{"made by Firefox", "- head: /packages/"}},
		{"insomnia.har", []string{`base_url: '{{ env("BASE_URL", "http://mitm.it") }}'`, "- get: /\n"}},
		{"postdata.har", []string{"- post: /metrics", `body: '{"metadata":{"pageViewId":1689428126308`}},
		{"with-bom.har", []string{"- post: /metrics", `body: '{"metadata":{"pageViewId":1689428126308`}},
	} {
		t.Run(c.file, func(t *testing.T) {
			f, err := os.ReadFile(filepath.Join("../testdata/har/mitmproxy", c.file))
			if err != nil {
				t.Fatal(err)
			}
			_, out := render(t, string(f), DefaultOptions())
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

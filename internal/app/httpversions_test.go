package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTTP2AskedButNotNegotiatedIsSaid: http2: true against a TLS server
// whose ALPN offers only http/1.1 measured HTTP/1.1 without a word (trial
// B: 16,073 requests, all HTTP/1.1, exit 0). The run records each
// endpoint's responses by version, in summary.json and run.db (loadlens
// summary says them again), and warns plainly when h2 was not negotiated.
func TestHTTP2AskedButNotNegotiatedIsSaid(t *testing.T) {
	for _, tc := range []struct {
		name     string
		h2       bool   // the server offers h2 in ALPN
		versions string // summary.json's endpoints[0].http_versions
		warned   bool
	}{
		{"the server offers only http/1.1", false, `{"HTTP/1.1":4}`, true},
		{"the server offers h2", true, `{"HTTP/2":4}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
			srv.EnableHTTP2 = tc.h2
			srv.StartTLS()
			defer srv.Close()
			res, text, s := runYAML(t, fmt.Sprintf(`
base_url: %s
http2: true
insecure_skip_tls_verify: true
scenarios:
  shop:
    vus: 1
    iterations: 4
    flow:
      - get: /
`, srv.URL), nil)
			eps, _ := s["loadlens"].(map[string]any)["endpoints"].([]any)
			if len(eps) != 1 {
				t.Fatalf("%d endpoints in summary.json", len(eps))
			}
			got, _ := json.Marshal(eps[0].(map[string]any)["http_versions"])
			if string(got) != tc.versions {
				t.Errorf("http_versions %s, want %s", got, tc.versions)
			}
			const warning = "HTTP/2 was asked for (http2: true) but not negotiated: 4 of scenario shop's 4 responses were answered over HTTP/1.1"
			flat := strings.Join(strings.Fields(text), " ")
			notices, _ := json.Marshal(s["loadlens"].(map[string]any)["notices"])
			if strings.Contains(flat, warning) != tc.warned || strings.Contains(string(notices), warning) != tc.warned {
				t.Errorf("warned %v, want %v:\n%s\nnotices %s", !tc.warned, tc.warned, text, notices)
			}
			var again bytes.Buffer // rebuilt from run.db
			if err := Summary(&again, filepath.Join(res.Dir, "run.db"), true); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(strings.Fields(again.String()), ""), `"http_versions":`+tc.versions) {
				t.Errorf("loadlens summary --json lacks http_versions %s", tc.versions)
			}
		})
	}
}

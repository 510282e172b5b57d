package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// recorder is a loopback target that keeps every header value it received.
type recorder struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	for _, vs := range req.Header {
		for _, v := range vs {
			r.seen[v] = true
		}
	}
	r.mu.Unlock()
	fmt.Fprint(w, `{"ok": true}`)
}

func (r *recorder) received(v string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[v]
}

// TestSecretsAreNotStored gives a secret each way the issue names and greps
// every file a run writes for it: run.db, report.html, summary.json, JUnit
// and Markdown. The target must still have received each one.
func TestSecretsAreNotStored(t *testing.T) {
	rec := &recorder{seen: map[string]bool{}}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	secrets := map[string]string{
		"-H Authorization":                 "hdr-auth-7f3a9c",
		"-H X-Api-Key":                     "hdr-apikey-51be02",
		"-e in URL mode":                   "e-url-c4d1e8",
		"literal header in a file":         "file-literal-9a0b7d",
		"{{ env.X }} from the environment": "procenv-2e6f4a",
		"-e with a file":                   "e-file-83c5d1",
	}
	outputs := func(tag string) []string {
		return []string{"--quiet", "--no-dashboard", "--results", "results",
			"--summary-json", tag + "-summary.json", "--junit", tag + "-junit.xml", "--summary-md", tag + "-summary.md"}
	}
	urlRun := append([]string{"run", srv.URL + "/x", "--vus", "1", "--duration", "1s",
		"-H", "Authorization: Bearer " + secrets["-H Authorization"],
		"-H", "X-Api-Key: " + secrets["-H X-Api-Key"],
		"-e", "K=" + secrets["-e in URL mode"], "-H", "X-From-Env: {{ env.K }}"}, outputs("url")...)
	if r := loadlens(t, dir, urlRun...); r.code != 0 {
		t.Fatalf("URL run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	test := writeTest(t, dir, "t.yaml", fmt.Sprintf(`base_url: %s
headers:
  X-Api-Key: %s
  Authorization: "Bearer {{ env.LL_E2E_TOKEN }}"
scenarios:
  s:
    model: iterations
    vus: 1
    iterations: 5
    flow:
      - get: /y
        headers: {X-Session: "{{ env.SESS }}"}
`, srv.URL, secrets["literal header in a file"]))
	t.Setenv("LL_E2E_TOKEN", secrets["{{ env.X }} from the environment"])
	fileRun := append([]string{"run", test, "-e", "SESS=" + secrets["-e with a file"]}, outputs("file")...)
	if r := loadlens(t, dir, fileRun...); r.code != 0 {
		t.Fatalf("file run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for way, s := range secrets {
		sent := s
		switch way {
		case "-H Authorization", "{{ env.X }} from the environment":
			sent = "Bearer " + s
		}
		if !rec.received(sent) {
			t.Errorf("%s: the target never received %q: the run did not use it", way, sent)
		}
	}
	var files []string
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && path != test {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"run.db": false, "report.html": false, "url-summary.json": false, "url-junit.xml": false, "url-summary.md": false,
		"file-summary.json": false, "file-junit.xml": false, "file-summary.md": false}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := want[filepath.Base(f)]; ok {
			want[filepath.Base(f)] = true
		}
		for way, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds the secret given as %s", f, way)
			}
		}
	}
	for name, found := range want {
		if !found {
			t.Errorf("no %s was written: %q", name, files)
		}
	}
	if len(files) < 10 {
		t.Errorf("only %d files to search: %q", len(files), files)
	}
}

package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// absoluteStep matches a step whose URL is not under the base URL: such a
// test would send load off this machine, so it is validated, not run.
var absoluteStep = regexp.MustCompile(`(?m)^\s+- (get|post|put|patch|delete|head|options|path): '?https?://`)

// think matches a think step's longest pause, in seconds.
var think = regexp.MustCompile(`think: '?(?:[0-9.]+s\.\.)?([0-9.]+)s`)

// thinks returns the seconds a test's think steps may pause in all.
func thinks(test string) float64 {
	var sum float64
	for _, m := range think.FindAllStringSubmatch(test, -1) {
		var s float64
		fmt.Sscan(m[1], &s)
		sum += s
	}
	return sum
}

// k6Outcomes is what becomes of each of k6's example scripts: ran (it
// converts, and its test ran against the local server), converted (a test
// that validates, not run here: a request to another host, think times
// of minutes, or gRPC, which TestK6CorpusProtocols runs against its own
// server), refused (it sends no HTTP, gRPC or WebSocket load).
var k6Outcomes = map[string]string{
	"base64": "refused", "browser_remote": "refused", "cookies": "ran", "crypto": "refused", "custom_metrics": "ran",
	"es6sample": "converted", "experimental_redis": "ran", "graphql": "ran", "grpc_healthcheck": "converted",
	"grpc_invoke": "converted", "html_form_post": "ran", "http_2": "ran", "http_basic_auth": "ran", "http_batch": "ran",
	"http_digest_auth": "ran", "http_get": "ran", "http_verbs": "ran", "influxdb-v1": "ran", "json": "ran", "jwt": "refused",
	"localhost": "ran", "logging": "refused", "malicious": "refused", "ocsp": "ran", "opentelemetry": "ran",
	"pantheon": "converted", "pantheontest": "converted", "redirects": "ran", "stages": "ran", "tagging": "ran",
	"thresholds": "ran", "thresholds_readme_example": "converted", "timers": "refused", "tls_skip_cert_verification": "ran",
	"tlsconfig": "ran", "websocket": "ran",
}

// TestK6CorpusRuns imports each of k6's example scripts (the importer's
// corpus) with the real binary, and runs every converted test whose
// requests all go to its base URL against a local server, with k6's
// -i 1 overriding its load: each run reaches a verdict (exit 0 or 99) and
// the server receives its requests. Refused scripts exit 1 saying why.
// Each script's outcome is k6Outcomes's: 29 of 36 convert (every one that
// sends load), 23 of them run here; the 7 others send none.
func TestK6CorpusRuns(t *testing.T) {
	var hits, basic atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if u, p, ok := r.BasicAuth(); ok && u == "user" && p == "passwd" { // http_basic_auth.js's two requests
			basic.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok": true}`)
	}))
	defer srv.Close()
	scripts, err := filepath.Glob("../internal/importer/testdata/k6/examples/*.js")
	if err != nil || len(scripts) != 36 {
		t.Fatalf("%d scripts (%v)", len(scripts), err)
	}
	sort.Strings(scripts)
	dir := t.TempDir()
	var converted, ran, refused []string
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".js")
		abs, _ := filepath.Abs(script)
		out := filepath.Join(dir, name+".yaml")
		res := loadlens(t, dir, "import", "k6", abs, "--out", out)
		if res.code != 0 {
			if res.code != 2 || !strings.Contains(res.stderr, "import k6: ") {
				t.Errorf("%s: import exit %d: %s", name, res.code, res.stderr)
			}
			refused = append(refused, name)
			continue
		}
		converted = append(converted, name)
		test, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if v := loadlens(t, dir, "validate", out); v.code != 0 {
			t.Errorf("%s: the imported test does not validate: %s", name, v.stderr)
			continue
		}
		if absoluteStep.Match(test) || !strings.Contains(string(test), `base_url: '{{ env("BASE_URL"`) {
			continue // a request to another host: not sent from a test
		}
		if thinks(string(test)) > 3 {
			continue // pantheon's users read each page for up to 30 s: an iteration takes minutes
		}
		before := hits.Load()
		r := loadlens(t, dir, "run", out, "-i", "1", "--quiet", "-e", "BASE_URL="+srv.URL, "--results", "results-"+name)
		if r.code != 0 && r.code != 99 {
			t.Errorf("%s: run exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
			continue
		}
		if hits.Load() == before {
			t.Errorf("%s: the run sent the local server nothing", name)
		}
		ran = append(ran, name)
	}
	t.Logf("converted %d of %d (%s); ran %d locally (%s); refused %d (%s)", len(converted), len(scripts), strings.Join(converted, ", "),
		len(ran), strings.Join(ran, ", "), len(refused), strings.Join(refused, ", "))
	got := map[string]string{}
	for _, name := range converted {
		got[name] = "converted"
	}
	for _, name := range ran {
		got[name] = "ran"
	}
	for _, name := range refused {
		got[name] = "refused"
	}
	for name, want := range k6Outcomes {
		if got[name] != want {
			t.Errorf("%s: %s, want %s", name, got[name], want)
		}
	}
	if basic.Load() != 2 {
		t.Errorf("%d requests authenticated as http_basic_auth.js's user, want its 2", basic.Load())
	}
	if len(converted) < 29 || len(ran) < 23 || len(got) != len(k6Outcomes) {
		t.Errorf("converted %d (want 29), ran %d (want 23), of %d scripts (want %d)", len(converted), len(ran), len(got), len(k6Outcomes))
	}
}

// TestK6LoopsRun imports a k6 script whose requests are in loops (a
// counted one, one over a written array, one over a response's array, a
// while (true) polling until a 200 breaks it) and runs one iteration: the
// server receives each loop's requests as many times as k6 would send
// them (the job answers 202 twice: three polls, two waits).
func TestK6LoopsRun(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path]++
		polls := got[r.URL.Path]
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/job" && polls < 3 {
			w.WriteHeader(http.StatusAccepted) // not done: the script polls again
		}
		fmt.Fprint(w, `{"items": [{"id": 7}, {"id": 8}, {"id": 9}]}`)
	}))
	defer srv.Close()
	dir := t.TempDir()
	script := filepath.Join(dir, "loops.js")
	src := `import http from 'k6/http';
const BASE = __ENV.BASE_URL || 'http://127.0.0.1:1';
const pages = ['a', 'b'];
export default function () {
  for (let i = 0; i < 3; i++) { http.get(BASE + '/ping'); }
  for (const p of pages) { http.get(` + "`${BASE}/page/${p}`" + `); }
  const res = http.get(BASE + '/items');
  for (const it of res.json('items')) { http.get(` + "`${BASE}/items/${it.id}`" + `); }
  while (true) {
    const job = http.get(BASE + '/job');
    if (job.status === 200) break;
    http.get(BASE + '/wait');
  }
}
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "loops.yaml")
	if r := loadlens(t, dir, "import", "k6", script, "--out", out); r.code != 0 {
		t.Fatalf("import exit %d: %s", r.code, r.stderr)
	}
	if r := loadlens(t, dir, "run", out, "-i", "1", "--quiet", "-e", "BASE_URL="+srv.URL); r.code != 0 {
		test, _ := os.ReadFile(out)
		t.Fatalf("run exit %d\n%s%s\n%s", r.code, r.stdout, r.stderr, test)
	}
	want := map[string]int{"/ping": 3, "/page/a": 1, "/page/b": 1, "/items": 1, "/items/7": 1, "/items/8": 1, "/items/9": 1, "/job": 3, "/wait": 2}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the server received %v, want %v", got, want)
	}
}

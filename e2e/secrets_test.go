package e2e

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"
)

// recorder is a loopback target that keeps every header and query value it
// received.
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
	for _, vs := range req.URL.Query() {
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

// payloads is a metrics store of every kind loadlens writes to (remote
// write, InfluxDB, OTLP): it keeps each body it received, decompressed,
// per output, for grepping.
type payloads struct {
	mu     sync.Mutex
	bodies map[string]*bytes.Buffer // by URL path
}

func (p *payloads) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	switch r.Header.Get("Content-Encoding") {
	case "snappy":
		b, err = snappy.Decode(nil, b)
	case "gzip":
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(b)); err == nil {
			b, err = io.ReadAll(zr)
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	if p.bodies[r.URL.Path] == nil {
		p.bodies[r.URL.Path] = &bytes.Buffer{}
	}
	p.bodies[r.URL.Path].Write(b)
	p.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// take returns what each output received since the last take, and forgets it.
func (p *payloads) take() map[string][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string][]byte{}
	for path, b := range p.bodies {
		out[path] = bytes.Clone(b.Bytes())
	}
	clear(p.bodies)
	return out
}

// watched is what a run showed beyond its files: the terminal, and what its
// live dashboard served (the page and the whole event stream).
type watched struct {
	code                int
	terminal, dashboard string
}

// runWatched runs loadlens in dir, reading its dashboard's page and event
// stream while the run lasts.
func runWatched(t *testing.T, dir string, args ...string) watched {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var terminal strings.Builder
	var dash bytes.Buffer
	fetched := make(chan struct{})
	sc := bufio.NewScanner(out)
	started := false
	for sc.Scan() {
		terminal.WriteString(sc.Text() + "\n")
		if rest, ok := strings.CutPrefix(sc.Text(), "dashboard: "); ok && !started {
			started = true
			go func() { defer close(fetched); readDashboard(ctx, strings.Fields(rest)[0], &dash) }()
		}
	}
	w := watched{terminal: terminal.String() + stderr.String()}
	if err := cmd.Wait(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("loadlens %v: %v", args, err)
		}
		w.code = ee.ExitCode()
	}
	if !started {
		t.Fatalf("loadlens %v printed no dashboard line:\n%s", args, w.terminal)
	}
	<-fetched // the stream ends with the run, or with ctx
	w.dashboard = dash.String()
	return w
}

// readDashboard appends the dashboard's page and its event stream, to its
// end, to into.
func readDashboard(ctx context.Context, page string, into *bytes.Buffer) {
	u, err := url.Parse(page)
	if err != nil {
		return
	}
	events := *u
	events.Path = "/events"
	for _, addr := range []string{u.String(), events.String()} { // the page, then the stream to the run's end
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, addr, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			into.WriteString(err.Error())
			continue
		}
		io.Copy(into, resp.Body)
		resp.Body.Close()
	}
}

// secretWay is one way a secret can be given, and what the target must
// have received for it.
type secretWay struct {
	secret string
	sent   string // "": the secret itself
}

// TestSecretsAreNotStored gives a secret each way the issue names — headers,
// -e and the environment, credentials in URLs (URL mode, base_url, a step's
// URL) and query tokens — and looks for it in everything a run writes or
// shows: the run directory's name, run.db's bytes, report.html,
// summary.json, JUnit, Markdown, the terminal, the dashboard's page and
// event stream, and the remote-write, InfluxDB and OTLP payloads. The
// target must still have received each one.
func TestSecretsAreNotStored(t *testing.T) {
	rec := &recorder{seen: map[string]bool{}}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	store := &payloads{bodies: map[string]*bytes.Buffer{}}
	storeSrv := httptest.NewServer(store)
	t.Cleanup(storeSrv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	basic := func(user, pass string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
	}
	ways := map[string]secretWay{
		"-H Authorization":                 {"hdr-auth-7f3a9c", "Bearer hdr-auth-7f3a9c"},
		"-H X-Api-Key":                     {"hdr-apikey-51be02", ""},
		"-e in URL mode":                   {"e-url-c4d1e8", ""},
		"literal header in a file":         {"file-literal-9a0b7d", ""},
		"{{ env.X }} from the environment": {"procenv-2e6f4a", "Bearer procenv-2e6f4a"},
		"-e with a file":                   {"e-file-83c5d1", ""},
		"user:password@ in URL mode":       {"urlpass-d27c90", basic("urluser", "urlpass-d27c90")},
		"?token= in URL mode":              {"urltok-6b1e3f", ""},
		"user:password@ in base_url":       {"basepass-f0a8e2", basic("baseuser", "basepass-f0a8e2")},
		"user:password@ in a step's URL":   {"steppass-91c4d7", basic("stepuser", "steppass-91c4d7")},
		"?sig= in a step's path":           {"stepsig-3d5a6b", ""},
		"query: access_token in a file":    {"qtok-7e2c15", ""},
	}
	s := func(way string) string { return ways[way].secret }
	outputs := func(tag string) []string {
		return []string{"--results", "results", "--summary-json", tag + "-summary.json", "--junit", tag + "-junit.xml", "--summary-md", tag + "-summary.md",
			"--out", "prometheus-rw=" + storeSrv.URL + "/api/v1/write", "--out", "influxdb=" + storeSrv.URL + "/write?db=k6",
			"--out", "otlp=" + storeSrv.URL + "/v1/metrics"}
	}
	dir := t.TempDir()
	headerTest := writeTest(t, dir, "t.yaml", fmt.Sprintf(`base_url: %s
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
`, srv.URL, s("literal header in a file")))
	credTest := writeTest(t, dir, "creds.yaml", fmt.Sprintf(`base_url: http://baseuser:%s@%s
scenarios:
  s:
    model: vus
    vus: 1
    duration: 2s
    flow:
      - get: /d?sig=%s&page=1
      - get: http://stepuser:%s@%s/e
      - get: /f
        query: {access_token: %s}
`, s("user:password@ in base_url"), host, s("?sig= in a step's path"), s("user:password@ in a step's URL"), host, s("query: access_token in a file")))
	t.Setenv("LL_E2E_TOKEN", s("{{ env.X }} from the environment"))
	runs := []struct {
		tag  string
		args []string
	}{
		{"url", []string{"run", srv.URL + "/x", "--vus", "1", "--duration", "2s",
			"-H", "Authorization: Bearer " + s("-H Authorization"), "-H", "X-Api-Key: " + s("-H X-Api-Key"),
			"-e", "K=" + s("-e in URL mode"), "-H", "X-From-Env: {{ env.K }}"}},
		{"file", []string{"run", headerTest, "-e", "SESS=" + s("-e with a file")}},
		{"urlcreds", []string{"run", "http://urluser:" + s("user:password@ in URL mode") + "@" + host + "/c?token=" + s("?token= in URL mode") + "&page=1",
			"--vus", "1", "--duration", "2s"}},
		{"filecreds", []string{"run", credTest}},
	}
	shown := map[string]string{} // what each run showed or sent, by where
	for _, r := range runs {
		w := runWatched(t, dir, append(r.args, outputs(r.tag)...)...)
		if w.code != 0 {
			t.Fatalf("%s run: exit %d\n%s", r.tag, w.code, w.terminal)
		}
		shown[r.tag+" run's terminal"] = w.terminal
		shown[r.tag+" run's dashboard"] = w.dashboard
		if !strings.Contains(w.dashboard, "data:") || !strings.Contains(strings.ToLower(w.dashboard), "<html") {
			t.Errorf("%s run: the dashboard's page and event stream were not read: %.300q", r.tag, w.dashboard)
		}
		for path, b := range store.take() {
			shown[r.tag+" run's payloads to "+path] = string(b)
		}
		for _, path := range []string{"/api/v1/write", "/write", "/v1/metrics"} {
			if !strings.Contains(shown[r.tag+" run's payloads to "+path], "testid") {
				t.Errorf("%s run: the output to %s received no testid label: nothing to search", r.tag, path)
			}
		}
	}
	v := loadlens(t, dir, "validate", credTest)
	if v.code != 0 {
		t.Errorf("validate %s: exit %d\n%s%s", credTest, v.code, v.stdout, v.stderr)
	}
	shown["validate's terminal"] = v.stdout + v.stderr
	for way, sw := range ways {
		sent := sw.sent
		if sent == "" {
			sent = sw.secret
		}
		if !rec.received(sent) {
			t.Errorf("%s: the target never received %q: the run did not use it", way, sent)
		}
	}
	files := map[string]bool{} // every path under dir, directories included: their names are shown too
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil && path != headerTest && path != credTest {
			files[path] = info.IsDir()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"run.db": 0, "report.html": 0}
	for _, r := range runs {
		for _, f := range []string{"-summary.json", "-junit.xml", "-summary.md"} {
			want[r.tag+f] = 0
		}
	}
	for f, isDir := range files {
		shown["the path "+f] = f
		if isDir {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := want[filepath.Base(f)]; ok {
			want[filepath.Base(f)]++
		}
		shown[f] = string(b)
	}
	for name, n := range want {
		if n == 0 || (n != len(runs) && (name == "run.db" || name == "report.html")) {
			t.Errorf("%d files named %s were written, of %d runs", n, name, len(runs))
		}
	}
	for where, text := range shown {
		for way, sw := range ways {
			if strings.Contains(text, sw.secret) {
				t.Errorf("%s holds the secret given as %s", where, way)
			}
			if sw.sent != sw.secret && sw.sent != "" && strings.Contains(text, sw.sent) {
				t.Errorf("%s holds the header value sent for %s", where, way)
			}
		}
	}
}

package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// browser is headless Chromium driven over the W3C WebDriver protocol:
// plain JSON over HTTP to chromedriver, so no client library is needed.
type browser struct {
	t       *testing.T
	base    string // chromedriver's URL
	session string
	client  *http.Client
}

// chromiumArgs keep Chromium off the network: without the background
// networking flags it phones home, which a closed network refuses.
func chromiumArgs() []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--window-size=1440,1000", "--force-device-scale-factor=1"}
}

// findBrowser returns the Chromium and chromedriver executables. When they
// are missing, the test fails under LOADLENS_CI=1 (CI installs them from
// .ci/apt-packages) and is skipped otherwise.
func findBrowser(t *testing.T) (chromium, driver string) {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	driver, _ = exec.LookPath("chromedriver")
	if chromium == "" || driver == "" {
		msg := "browser tests need chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg + "; skipped (set LOADLENS_CI=1 to make this a failure)")
	}
	return chromium, driver
}

// startBrowser starts chromedriver and a headless Chromium session with a
// fresh profile; both end with the test.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	chromium, driver := findBrowser(t)
	port := freePort(t)
	cmd := exec.Command(driver, fmt.Sprintf("--port=%d", port), "--allowed-ips=127.0.0.1")
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromedriver: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	b := &browser{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", port), client: &http.Client{Timeout: 60 * time.Second}}
	waitFor(t, 20*time.Second, "chromedriver to be ready", func() bool {
		resp, err := b.client.Get(b.base + "/status")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	args := append([]string{"--user-data-dir=" + t.TempDir()}, chromiumArgs()...)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	b.call("POST", "/session", map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName":        "chrome",
		"goog:chromeOptions": map[string]any{"binary": chromium, "args": args},
		"goog:loggingPrefs":  map[string]string{"browser": "ALL"},
	}}}, &created)
	b.session = created.SessionID
	t.Cleanup(func() { b.call("DELETE", "/session/"+b.session, nil, nil) })
	return b
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// call sends one WebDriver command and decodes its "value" into out.
func (b *browser) call(method, path string, in, out any) {
	b.t.Helper()
	var body io.Reader
	if in != nil {
		js, err := json.Marshal(in)
		if err != nil {
			b.t.Fatal(err)
		}
		body = bytes.NewReader(js)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatalf("webdriver %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatalf("webdriver %s %s: %v", method, path, err)
	}
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		b.t.Fatalf("webdriver %s %s: %v\n%s", method, path, err, raw)
	}
	if resp.StatusCode != http.StatusOK {
		b.t.Fatalf("webdriver %s %s: %s\n%s", method, path, resp.Status, env.Value)
	}
	if out != nil {
		if err := json.Unmarshal(env.Value, out); err != nil {
			b.t.Fatalf("webdriver %s %s: decode %s: %v", method, path, env.Value, err)
		}
	}
}

func (b *browser) path(p string) string { return "/session/" + b.session + p }

// open navigates to url and waits for the page to load.
func (b *browser) open(url string) {
	b.t.Helper()
	b.call("POST", b.path("/url"), map[string]string{"url": url}, nil)
}

// openReport opens a report.html from disk and waits, at most limit, until
// its script has drawn the charts.
func (b *browser) openReport(path string, limit time.Duration) {
	b.t.Helper()
	b.open(fileURL(b.t, path))
	waitFor(b.t, limit, "report.html to render", func() bool {
		var ready bool
		b.eval(`return !!(window.LL && LL.ready)`, &ready)
		return ready
	})
}

// eval runs a script's body in the page and decodes what it returns into out.
func (b *browser) eval(script string, out any) {
	b.t.Helper()
	b.call("POST", b.path("/execute/sync"), map[string]any{"script": script, "args": []any{}}, out)
}

// consoleErrors returns the SEVERE console entries (errors, uncaught
// exceptions, CSP violations) logged since the last call.
func (b *browser) consoleErrors() []string {
	b.t.Helper()
	var entries []struct {
		Level, Message string
	}
	b.call("POST", b.path("/se/log"), map[string]string{"type": "browser"}, &entries)
	var out []string
	for _, e := range entries {
		if e.Level == "SEVERE" {
			out = append(out, e.Message)
		}
	}
	return out
}

// screenshot saves the whole page as a PNG under e2e/artifacts/, resizing
// the window to the page's height first (at most 6000 px).
func (b *browser) screenshot(name string) string {
	b.t.Helper()
	var height int
	b.eval(`return Math.ceil(document.documentElement.scrollHeight)`, &height)
	b.call("POST", b.path("/window/rect"), map[string]int{"width": 1440, "height": min(max(height, 800), 6000)}, nil)
	var shot string
	b.call("GET", b.path("/screenshot"), nil, &shot)
	png, err := base64.StdEncoding.DecodeString(shot)
	if err != nil {
		b.t.Fatal(err)
	}
	dir, err := filepath.Abs("artifacts")
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
	return path
}

// fileURL returns the file:// URL of a local path.
func fileURL(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + strings.ReplaceAll(abs, " ", "%20")
}

package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestURLModeSendsWhatTheFlagsSay checks, from the target's side, that -e
// reaches {{ env.X }} in the URL, a header and the body, and that a space
// in the URL's path arrives percent-encoded.
func TestURLModeSendsWhatTheFlagsSay(t *testing.T) {
	var mu sync.Mutex
	var uris, headers, bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		uris, headers, bodies = append(uris, r.RequestURI), append(headers, r.Header.Get("X-Item")), append(bodies, string(b))
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	r := loadlens(t, t.TempDir(), "run", srv.URL+"/{{ env.P }}/a b", "--vus", "1", "--duration", "1s", "--quiet", "--no-dashboard", "--results", "results",
		"-e", "P=items", "-e", "ITEM=i-42", "-H", "X-Item: {{ env.ITEM }}", "--body", `{"n": "{{ env.ITEM }}"}`)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "spaces are sent percent-encoded") {
		t.Errorf("no note about the space: %q", r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(uris) == 0 {
		t.Fatal("the target received nothing")
	}
	if uris[0] != "/items/a%20b" || headers[0] != "i-42" || bodies[0] != `{"n": "i-42"}` {
		t.Errorf("the target received %s with X-Item %q and body %q", uris[0], headers[0], bodies[0])
	}
}

// TestURLModeGracefulStopBoundsAStalledRun runs against a target that
// accepts and never answers: the run must end about --duration plus the
// graceful stop after it started, not the 30 s a test file's default gives.
func TestURLModeGracefulStopBoundsAStalledRun(t *testing.T) {
	url := "http://" + muteListener(t) + "/stall" // reads nothing, answers nothing
	for _, c := range []struct {
		name  string
		args  []string
		bound time.Duration // duration + graceful stop
	}{
		{"default graceful stop", nil, 2*time.Second + 5*time.Second},
		{"--graceful-stop 1s", []string{"--graceful-stop", "1s"}, 2*time.Second + time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			r := loadlens(t, t.TempDir(), append([]string{"run", url, "--rate", "5", "--duration", "2s", "--quiet", "--no-dashboard", "--results", "results"}, c.args...)...)
			took := time.Since(start)
			if r.code == 2 {
				t.Fatalf("exit 2: %s", r.stderr)
			}
			// Generous: start-up, writing the report and a busy machine add seconds, never a 30 s graceful stop.
			if took < 2*time.Second || took > c.bound+8*time.Second {
				t.Errorf("the run took %v, want about %v", took.Round(100*time.Millisecond), c.bound)
			}
		})
	}
}
